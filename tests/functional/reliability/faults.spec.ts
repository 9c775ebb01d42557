import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import env from '#start/env'
import { serviceApiKey } from '#tests/helpers/fixtures'
import { sqlitePath } from '#config/paths'
import { completeToken, freshDatabase, shiftDate, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { duplicateKeys, lostRows, userData } from '#tests/helpers/fuzz/sync_state'
import { truncateDatabase } from '#tests/helpers/database'

const TODAY = '2026-03-15'
const LATER = shiftDate(TODAY, 3)
const TOKEN = completeToken('fault_source')

type FaultSpec = Parameters<SimulatorContext['sim']['setFault']>[1]
type Endpoint = Parameters<SimulatorContext['sim']['setFault']>[0]

/**
 * Each provider fault runs the same story twice, once with the fault and once
 * without: a clean sync today, three days later a sync with the fault, then a
 * sync after the fault is gone. The faulty user must lose nothing, never hold
 * a duplicate, record the failure clearly, and end equal to the clean one.
 */
const PROVIDER_FAULTS: Array<{
  name: string
  endpoint: Endpoint
  fault: FaultSpec
  /** What the faulty sync answers. */
  expect: { status: number; body: Record<string, unknown>; error: RegExp }
}> = [
  {
    name: 'provider 5xx',
    endpoint: 'sleep',
    fault: { type: 'server_error', status: 500 },
    expect: { status: 200, body: { status: 'partial' }, error: /500/ },
  },
  {
    name: 'provider 429 with a reset',
    endpoint: 'cardio_load',
    fault: { type: 'rate_limit', resetSeconds: 90 },
    expect: { status: 503, body: { code: 'E_PROVIDER_RATE_LIMITED' }, error: /rate|429/i },
  },
  {
    name: 'provider timeout',
    endpoint: 'activity',
    fault: { type: 'timeout' },
    expect: { status: 200, body: { status: 'partial' }, error: /did not answer|time/i },
  },
  {
    name: 'malformed provider JSON',
    endpoint: 'recharge',
    fault: { type: 'malformed' },
    expect: { status: 200, body: { status: 'partial' }, error: /JSON|malformed|parse|invalid/i },
  },
]

test.group('Reliability | provider faults lose and duplicate nothing', (group) => {
  let ctx: SimulatorContext
  let key: string
  group.each.setup(async () => {
    ctx = await startSimulatorContext(TODAY)
    const cleanup = await freshDatabase()
    key = await serviceApiKey()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  const trigger = (userId: string) =>
    fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/users/${userId}/sync/trigger`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'X-Provider-Token': TOKEN },
    })

  for (const scenario of PROVIDER_FAULTS) {
    test(scenario.name, async ({ assert }) => {
      ctx.setToday(TODAY)
      assert.equal((await trigger('faulty')).status, 200)
      const beforeFault = await userData('faulty')

      ctx.setToday(LATER)
      ctx.sim.setFault(scenario.endpoint, scenario.fault)
      const faulty = await trigger('faulty')
      const body = (await faulty.json()) as Record<string, unknown>
      ctx.sim.clearFaults()

      // A clear answer and a clear record of what failed.
      assert.equal(faulty.status, scenario.expect.status, JSON.stringify(body))
      assert.containsSubset(body, scenario.expect.body)
      const user = await User.findByOrFail('externalId', 'faulty')
      const run = await SyncRun.query().where('userId', user.id).orderBy('id', 'desc').firstOrFail()
      assert.include(['partial', 'rate_limited', 'failed'], run.status)
      const recorded = JSON.parse(run.errors ?? '{}')
      const errorKey = scenario.endpoint === 'recharge' ? 'recharge' : scenario.endpoint
      assert.property(recorded, errorKey)
      assert.match(recorded[errorKey], scenario.expect.error)

      // Nothing lost, nothing duplicated, during the fault.
      const duringFault = await userData('faulty')
      assert.deepEqual(lostRows(beforeFault, duringFault), [])
      assert.deepEqual(await duplicateKeys('faulty'), [])

      // Once the provider is well again, the faulty user equals the clean one.
      const recovered = await trigger('faulty')
      assert.equal(recovered.status, 200)
      assert.equal(((await recovered.json()) as { status: string }).status, 'success')
      assert.deepEqual(await duplicateKeys('faulty'), [])

      // Reference: the same story with no fault. A Polar account is bound to one user, so the
      // clean user gets the account once the faulty one is gone.
      const recoveredData = await userData('faulty')
      await user.delete()
      ctx.setToday(TODAY)
      assert.equal((await trigger('clean')).status, 200)
      ctx.setToday(LATER)
      assert.equal((await trigger('clean')).status, 200)
      assert.deepEqual(recoveredData, await userData('clean'))
    }).timeout(120_000)
  }
})

test.group('Reliability | database unavailable during requests', (group) => {
  group.each.setup(() => truncateDatabase())
  group.setup(() => {
    const previous = env.get('OPS_TOKENS')
    env.set('OPS_TOKENS', JSON.stringify({ 'reliability-db-down-token-0123456789': ['*'] }))
    return () => env.set('OPS_TOKENS', previous ?? '')
  })

  /**
   * Makes the database stop answering for real, through the application's own
   * open connections and pools: PostgreSQL refuses new connections and drops
   * the open ones; SQLite is write-locked by another connection (the app's
   * writes wait out busy_timeout, then fail with SQLITE_BUSY).
   */
  async function databaseOutage(): Promise<() => Promise<void>> {
    const connection = db.connection()
    if (connection.dialect.name === 'postgres') {
      const { default: pg } = await import('pg')
      const name = new URL(env.get('DATABASE_URL')!).pathname.slice(1)
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' })
      await admin.connect()
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`)
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name])
      return async () => {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`)
        await admin.end()
      }
    }
    // @ts-ignore better-sqlite3 ships no type declarations here
    const { default: Database } = await import('better-sqlite3')
    const locker = new Database(sqlitePath)
    locker.pragma('journal_mode = WAL')
    locker.exec('BEGIN EXCLUSIVE')
    return async () => {
      locker.exec('ROLLBACK')
      locker.close()
    }
  }

  test('API requests answer 503 problem+json with Retry-After while the database does not answer, and recover', async ({ assert }) => {
    const user = await User.create({ externalId: 'db_down', isActive: true })
    const key = await serviceApiKey()
    const base = `http://127.0.0.1:${process.env.PORT}`
    const requests: Array<[string, RequestInit]> = [
      [`/api/v1/users/db_down/activity?days=30`, { headers: { 'X-API-Key': key } }],
      [`/api/v1/users/db_down/sync/trigger`, { method: 'POST', headers: { 'X-API-Key': key, 'X-Provider-Token': 't' } }],
    ]
    const before = await db.from('users').count('* as n')

    const restore = await databaseOutage()
    const during: string[] = []
    try {
      for (const [path, init] of requests) {
        const response = await fetch(base + path, init)
        const body = await response.text()
        const type = response.headers.get('content-type') ?? ''
        if (response.status !== 503 || !type.startsWith('application/problem+json') || !response.headers.get('retry-after')) {
          during.push(`${path}: ${response.status} ${type} ${body.slice(0, 160)}`)
        } else {
          assert.equal(JSON.parse(body).code, 'E_DATABASE_UNAVAILABLE')
          assert.notMatch(body, /SQLITE_|ECONNREFUSED|pg_|terminat|accepting/)
        }
      }
      // PostgreSQL down: the health endpoint reports it (SQLite still answers reads under a write lock).
      if (db.connection().dialect.name === 'postgres') assert.equal((await fetch(`${base}/health`)).status, 503)
    } finally {
      await restore()
    }
    assert.deepEqual(during, [])

    // Back: the same requests answer normally, and nothing stored was lost.
    const again = await fetch(`${base}/api/v1/users/db_down/activity?days=30`, { headers: { 'X-API-Key': key } })
    assert.equal(again.status, 200, await again.clone().text())
    assert.equal((await fetch(`${base}/health`)).status, 200)
    assert.deepEqual(await db.from('users').count('* as n'), before)
    assert.isNotNull(await User.find(user.id))
  }).timeout(90_000)
})

import { createHmac } from 'node:crypto'
import { test } from '@japa/runner'
import encryption from '@adonisjs/core/services/encryption'
import { freePort } from '#tests/helpers/free_port'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import AppSetting from '#models/app_setting'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { POLAR_WEBHOOK_SETTINGS } from '#services/polar/polar_webhook_service'
import { ApiKeyService } from '#services/auth/api_key_service'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { SYNC_TYPES } from '#services/sync/sync_types'
import { ProcessGroup, type AppProcess } from '#tests/functional/scale_out/processes'
import { truncateDatabase } from '#tests/helpers/database'

/**
 * The scale-out profile (PostgreSQL + Redis): two web processes, two queue workers and scheduler
 * processes started as children against this run's database and Redis prefix, with the Polar
 * simulator on loopback. Runs in `npm run test:pg` only.
 */
const scaleOut = env.get('DB_CONNECTION') === 'pg' && Boolean(env.get('REDIS_URL'))
const SKIP_REASON = 'needs PostgreSQL and Redis (npm run test:pg)'
const RATE_LIMIT = 10

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function eventually<T>(check: () => Promise<T | null | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const value = await check()
    if (value) return value
    await sleep(250)
  }
  throw new Error(`${what}: not reached within ${ms} ms`)
}

test.group('Scale-out | two web and two worker processes on PostgreSQL and Redis', (group) => {
  let sim: PolarSimulator
  let processes: ProcessGroup
  let webs: string[] = []
  let workers: AppProcess[] = []

  group.tap((t) => t.skip(!scaleOut, SKIP_REASON).timeout(150_000))

  group.setup(async () => {
    if (!scaleOut) return () => {}
    const truncateAgain = await truncateDatabase()
    // 40 ms per answer: a sync lasts long enough for concurrent triggers to overlap.
    sim = await startPolarSimulator({ latencyMs: 40, rateLimit: { short: 1e6, long: 1e6 } })
    processes = new ProcessGroup({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      POLAR_API_BASE_URL: sim.url,
      POLAR_AUTH_URL: sim.authUrl,
      POLAR_TOKEN_URL: sim.tokenUrl,
      RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
      RATE_LIMIT_WINDOW: '15 minutes',
      SYNC_ENABLED: 'true',
      SYNC_INTERVAL_MINUTES: '1',
    })
    try {
      // One after the other: start/migrate.ts runs the migrator (advisory lock) in every web process.
      const a = await processes.web('web-a', await freePort())
      const b = await processes.web('web-b', await freePort())
      webs = [a.url, b.url]
      // One worker from source, one as `npm run start:worker` runs it (the compiled build, made here
      // first when missing or stale, by a command that ends).
      workers = [processes.startAce('worker-1', ['queue:work'])]
      await processes.ace('build', ['migration:status'], {}, { compiled: true })
      workers.push(processes.startAce('worker-2', ['queue:work'], {}, { compiled: true }))
    } catch (error) {
      await processes.stopAll()
      await sim.close()
      throw error
    }
    return async () => {
      await processes.stopAll()
      await sim.close()
      // Leave no API key behind: later files may rely on open mode.
      await truncateAgain()
    }
  })

  test('concurrent triggers for one user on different web processes give exactly one 409', async ({ assert }) => {
    const { plain } = await (await app.container.make(ApiKeyService)).create('trigger-key')
    await User.create({ externalId: 'across', isActive: true })
    const fire = (base: string) =>
      fetch(`${base}/api/v1/users/across/sync/trigger?days=7`, {
        method: 'POST',
        headers: { 'X-API-Key': plain, 'X-Provider-Token': 'across_bio_complete' },
      })
    const responses = await Promise.all(webs.map(fire))
    const statuses = responses.map((r) => r.status).sort()
    assert.deepEqual(statuses, [200, 409], processes.dump())
    const conflict = responses.find((r) => r.status === 409)!
    assert.equal(((await conflict.json()) as { code: string }).code, 'E_SYNC_IN_PROGRESS')

    // The lock is released for every process afterwards, and a re-sync through the other
    // process leaves the stored rows as they were.
    const rowsAfterFirst = await dataRowCounts()
    const again = await fire(webs[1])
    assert.equal(again.status, 200)
    assert.deepEqual(await dataRowCounts(), rowsAfterFirst)
  })

  test('rate limits are counted across web processes', async ({ assert }) => {
    const { plain } = await (await app.container.make(ApiKeyService)).create('limited-key')
    await User.firstOrCreate({ externalId: 'limited' }, { isActive: true })
    const remaining: number[] = []
    const statuses: number[] = []
    for (let i = 0; i < RATE_LIMIT + 2; i++) {
      const response = await fetch(`${webs[i % 2]}/api/v1/users/limited/sleep?days=7`, { headers: { 'X-API-Key': plain } })
      await response.arrayBuffer()
      statuses.push(response.status)
      remaining.push(Number(response.headers.get('ratelimit-remaining')))
      if (response.status === 429) assert.isNotNull(response.headers.get('retry-after'))
    }
    // Alternating processes, one budget: 10 answers, then 429 on both processes.
    assert.deepEqual(statuses, [...Array(RATE_LIMIT).fill(200), 429, 429])
    assert.deepEqual(
      remaining.slice(0, RATE_LIMIT),
      Array.from({ length: RATE_LIMIT }, (_, i) => RATE_LIMIT - 1 - i)
    )
  })

  test('a burst of concurrent requests on both web processes gets exactly the budget, each answer its own place in it', async ({
    assert,
  }) => {
    const { plain } = await (await app.container.make(ApiKeyService)).create('burst-key')
    await User.firstOrCreate({ externalId: 'burst' }, { isActive: true })
    // Several increments of one key on the way at once in each process, and both processes at once.
    const responses = await Promise.all(
      Array.from({ length: RATE_LIMIT * 3 }, async (_, i) => {
        const response = await fetch(`${webs[i % 2]}/api/v1/users/burst/sleep?days=7`, { headers: { 'X-API-Key': plain } })
        await response.arrayBuffer()
        return { status: response.status, remaining: Number(response.headers.get('ratelimit-remaining')) }
      })
    )
    const answered = responses.filter((r) => r.status === 200)
    assert.lengthOf(answered, RATE_LIMIT)
    assert.lengthOf(
      responses.filter((r) => r.status === 429),
      RATE_LIMIT * 2
    )
    assert.deepEqual(
      answered.map((r) => r.remaining).sort((a, b) => a - b),
      Array.from({ length: RATE_LIMIT }, (_, i) => i)
    )
  })

  test('every scheduled user is synced exactly once per interval by the two workers', async ({ assert }) => {
    const tokens = await app.container.make(ProviderTokenService)
    await db.from('sync_runs').delete()
    await db.from('users').update({ provider_token_encrypted: null })
    const names = ['sched_a', 'sched_b', 'sched_c']
    const users = []
    for (const name of names) {
      const user = await User.firstOrCreate({ externalId: name }, { isActive: true })
      await tokens.store(user, `${name}_complete`)
      users.push(user)
    }

    // Two schedulers racing in the same SYNC_INTERVAL_MINUTES slot: one schedules, one finds it taken.
    // (Started early enough in the minute that both ticks fall into the same one-minute slot.)
    const second = new Date().getUTCSeconds()
    if (second > 35) await sleep((61 - second) * 1000)
    const outputs = await Promise.all([
      processes.ace('scheduler-1', ['sync:scheduler', '--once']),
      processes.ace('scheduler-2', ['sync:scheduler', '--once'], {}, { compiled: true }),
    ])
    const outcomes = outputs.map((o) => /slot \d+: (\w+), (\d+) job/.exec(o)).map((m) => [m?.[1], Number(m?.[2])])
    assert.sameDeepMembers(outcomes, [
      ['scheduled', names.length],
      ['taken', 0],
    ])

    // The scheduler spreads the users over the interval (0, 20, 40 s); wait for every sync.
    await eventually(
      async () => {
        const [row] = await db.from('sync_runs').whereNot('status', 'running').count('* as total')
        return Number(row.total) >= names.length
      },
      100_000,
      `scheduled syncs\n${processes.dump()}`
    )
    await sleep(1500)
    const runs = await db.from('sync_runs').select('user_id', 'trigger', 'status')
    assert.lengthOf(runs, names.length)
    assert.sameMembers(
      runs.map((r) => r.user_id),
      users.map((u) => u.id)
    )
    for (const run of runs) {
      assert.equal(run.trigger, 'scheduler')
      assert.equal(run.status, 'success')
    }
    // Both workers, the one from source and the compiled one, are still serving the queue.
    for (const worker of workers) assert.isNull(worker.child.exitCode, `${worker.name}\n${worker.output()}`)
  })

  test('webhook events for one user arriving at both web processes in parallel store each row once', async ({ assert }) => {
    const secret = 'scale-out-webhook-secret'
    await AppSetting.updateOrCreate(
      { key: POLAR_WEBHOOK_SETTINGS.secret },
      { key: POLAR_WEBHOOK_SETTINGS.secret, value: encryption.encrypt(secret), isEncrypted: true }
    )
    try {
      const token = 'pushed_bio_complete'
      const user = await User.create({ externalId: 'pushed', isActive: true, polarUserId: String(sim.polarUserIdOf(token)) })
      await (await app.container.make(ProviderTokenService)).store(user, token)
      const today = sim.today()
      const dates = [0, 1, 2].map((back) => new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10))
      // Every event is delivered to both processes at once.
      const deliveries = dates.flatMap((date) => {
        const body = JSON.stringify({ event: 'SLEEP', user_id: sim.polarUserIdOf(token), date })
        const signature = createHmac('sha256', secret).update(body).digest('hex')
        return webs.map((base) =>
          fetch(`${base}/webhooks/polar`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Polar-Webhook-Signature': signature },
            body,
          }).then(async (response) => ({ status: response.status, body: (await response.json()) as { status: string } }))
        )
      })
      const answers = await Promise.all(deliveries)
      for (const answer of answers) assert.equal(answer.status, 200, `${JSON.stringify(answer.body)}\n${processes.dump()}`)
      const kinds = answers.map((a) => a.body.status).sort()
      assert.deepEqual(kinds, [...Array(dates.length).fill('duplicate'), ...Array(dates.length).fill('queued')])

      await eventually(
        async () => {
          const [row] = await db.from('nightly_recharges').where('user_id', user.id).count('* as n')
          return Number(row.n) >= dates.length
        },
        60_000,
        `webhook fetches\n${processes.dump()}`
      )
      const nights = await db.from('sleep_records').where('user_id', user.id).select('date')
      assert.sameMembers(
        nights.map((n) => n.date),
        dates
      )
    } finally {
      await AppSetting.query().where('key', POLAR_WEBHOOK_SETTINGS.secret).delete()
    }
  })

  test('MCP is stateless across web processes: a client whose requests alternate between both gets the REST answers, and a sync triggered on one is followed on the other', async ({ assert }) => {
    const keys = await app.container.make(ApiKeyService)
    const user = await User.firstOrCreate({ externalId: 'mcp_across' }, { isActive: true })
    await (await app.container.make(ProviderTokenService)).store(user, 'mcp_across_bio_complete')
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    /** An SDK client whose HTTP requests go to web-a, web-b, web-a, …: no request depends on an earlier one's process. */
    const alternating = async (key: string, era: 'modern' | 'legacy') => {
      let next = 0
      const hosts: string[] = []
      const fetchAcross: typeof fetch = (input, init) => {
        const base = webs[next++ % webs.length]
        hosts.push(base)
        const url = new URL(input instanceof Request ? input.url : String(input))
        return fetch(`${base}${url.pathname}${url.search}`, init)
      }
      const client = new Client(
        { name: 'scale-out', version: '1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}
      )
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${webs[0]}/mcp`), { requestInit: { headers: { 'X-API-Key': key } }, fetch: fetchAcross })
      )
      return { client, hosts }
    }

    // Data for the user, then each era with its own key (the per-key budget is RATE_LIMIT).
    const seedKey = (await keys.create('mcp-seed')).plain
    const synced = await fetch(`${webs[1]}/api/v1/users/mcp_across/sync/trigger?days=7`, {
      method: 'POST',
      headers: { 'X-API-Key': seedKey, 'X-Provider-Token': 'mcp_across_bio_complete' },
    })
    assert.equal(synced.status, 200, processes.dump())
    const restSleep = await (await fetch(`${webs[1]}/api/v1/users/mcp_across/sleep`, { headers: { 'X-API-Key': seedKey } })).json()
    const restInsights = await (await fetch(`${webs[0]}/api/v1/users/mcp_across/insights`, { headers: { 'X-API-Key': seedKey } })).json()
    assert.isAbove((restSleep as unknown[]).length, 0)

    for (const era of ['modern', 'legacy'] as const) {
      const { client, hosts } = await alternating((await keys.create(`mcp-${era}`)).plain, era)
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era === 'modern' ? '2026-07-28' : '2025-11-25')
        assert.isAtLeast((await client.listTools()).tools.length, 15)
        const sleep = await client.callTool({ name: 'get_sleep', arguments: { user_id: 'mcp_across' } })
        assert.deepEqual(era === 'modern' ? sleep.structuredContent : (sleep.structuredContent as any).result, restSleep)
        const insights = await client.callTool({ name: 'get_health_insights', arguments: { user_id: 'mcp_across' } })
        assert.deepEqual({ ...(insights.structuredContent as any), generated_at: null }, { ...(restInsights as any), generated_at: null })
      } finally {
        await client.close()
      }
      assert.sameMembers([...new Set(hosts)], webs, `${era}: requests reached both processes`)
    }

    // trigger_sync on web-a queues the job; a worker process runs it; web-b reports it.
    const syncKey = (await keys.create('mcp-sync')).plain
    const { client, hosts } = await alternating(syncKey, 'modern')
    try {
      const queued = await client.callTool({ name: 'trigger_sync', arguments: { user_id: 'mcp_across', days: 3 } })
      assert.notOk(queued.isError, JSON.stringify(queued.content))
      const jobId = (queued.structuredContent as { job_id: string }).job_id
      await eventually(
        async () => (await SyncRun.query().where('jobId', jobId).whereNot('status', 'running').first()) ?? false,
        60_000,
        `MCP-triggered sync\n${processes.dump()}`
      )
      const status = await client.callTool({ name: 'get_sync_status', arguments: { user_id: 'mcp_across', job_id: jobId } })
      const job = (status.structuredContent as any).job
      assert.equal(job.state, 'run')
      assert.include(job.run, { status: 'success', trigger: 'api', days: 3 })
      assert.sameMembers([...new Set(hosts)], webs)
    } finally {
      await client.close()
    }
  })

  test('no data table holds a duplicate row after syncs in several processes', async ({ assert }) => {
    for (const type of SYNC_TYPES) {
      const keys = ['user_id', ...type.naturalKey]
      const duplicates = await db.from(type.table).select(keys).count('* as n').groupBy(keys).havingRaw('count(*) > 1')
      assert.lengthOf(duplicates, 0, `${type.table} has duplicates`)
    }
    const [stored] = await db.from('sleep_records').count('* as total')
    assert.isAbove(Number(stored.total), 0)
  })
})

/** Rows per data table. */
async function dataRowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const type of SYNC_TYPES) {
    const [row] = await db.from(type.table).count('* as total')
    counts[type.table] = Number(row.total)
  }
  return counts
}

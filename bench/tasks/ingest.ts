/*
|--------------------------------------------------------------------------
| Task: database ingest rate of the sync engine's upserts
|--------------------------------------------------------------------------
|
| 1. Provider calls per user-sync: a few users synced twice through the real
|    engine (first sync and a re-sync of the same 28 days).
| 2. Ingest: mapper rows of 10 simulator users (all 12 types, 28 days) are
|    written for `--users` users with the engine's upsert (upsertRows, each
|    type atomic on its own as in a sync: one statement, one commit), first
|    as inserts, then again as a re-sync of identical rows (ON CONFLICT … DO
|    UPDATE, unchanged rows not rewritten), sequentially and 4 users at a
|    time, and in one transaction per user with a savepoint per type (one
|    commit per sync instead of twelve). Network fetch time and the sync_runs
|    bookkeeping are excluded; this is the rate the database side of a sync
|    sustains. The 4-at-a-time passes are repeated for other users with the
|    row mix of 2026-11-24 (without the exercise and activity samples stored
|    since), so the upsert itself compares like for like. Prints the figures
|    as JSON.
|
*/
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { bootConsoleApp, emit } from '../lib/console_app.js'

const { values } = parseArgs({ options: { users: { type: 'string', default: '200' } } })
const USERS = Number(values.users)

const app = await bootConsoleApp()
const { default: db } = await import('@adonisjs/lucid/services/db')
const { default: User } = await import('#models/user')
const { ClockService } = await import('#services/clock_service')
const { PolarClientFactory } = await import('#services/polar/polar_client_factory')
const { SyncEngine } = await import('#services/sync/sync_engine')
const { SYNC_TYPES } = await import('#services/sync/sync_types')
const { upsertRows } = await import('#services/sync/queries')
const { startPolarSimulator } = await import('#simulators/polar/simulator')

const sim = await startPolarSimulator({ window: 28, latencyMs: 0, rateLimit: { short: 1e9, long: 1e9 } })
const factory = new PolarClientFactory({ baseUrl: sim.url, retryDelayMs: 5, timeoutMs: 10_000 })
app.container.swap(PolarClientFactory, () => factory)
const clock = new ClockService()

// 1. Calls per user-sync, first sync and re-sync.
const engine = await app.container.make(SyncEngine)
const calls: Array<{ first: number; resync: number; firstByEndpoint: Record<string, number>; resyncByEndpoint: Record<string, number>; rows: number }> = []
for (let i = 0; i < 5; i++) {
  const user = await User.create({ externalId: `calls_${i}`, isActive: true })
  const first = await engine.run(user, { token: `calls_user_${i}`, days: 28, trigger: 'command' })
  const second = await engine.run(user, { token: `calls_user_${i}`, days: 28, trigger: 'command' })
  calls.push({
    first: first.providerCalls,
    resync: second.providerCalls,
    firstByEndpoint: first.callsByEndpoint,
    resyncByEndpoint: second.callsByEndpoint,
    rows: first.rowsWritten,
  })
}

// 2. Mapper rows of 10 simulator users.
const templates: Array<Array<{ table: string; naturalKey: string[]; rows: Record<string, unknown>[] }>> = []
for (let t = 0; t < 10; t++) {
  const client = factory.accessLink(`ingest_template_${t}`)
  const types = []
  const range = clock.window(28)
  const pulled = new Map<string, unknown[]>()
  for (const type of SYNC_TYPES) {
    const items = type.from
      ? (pulled.get(type.from) ?? [])
      : (await type.pull({ client, range, knownExerciseIds: async () => new Set<string>() })).items
    pulled.set(type.key, items)
    const rows = await type.map(items, { offsetMinutes: async () => 0, range })
    types.push({ table: type.table, naturalKey: type.naturalKey, rows })
  }
  templates.push(types)
}
await sim.close()

/** The tables a sync stored on 2026-11-24 (exercise and activity samples came after). */
const ADDED_SINCE_2026_11_24 = new Set(['exercise_samples', 'activity_samples'])
const templatesOf20261124 = templates.map((types) => types.filter((type) => !ADDED_SINCE_2026_11_24.has(type.table)))

const users: InstanceType<typeof User>[] = []
for (let i = 0; i < 2 * USERS + 6; i++) users.push(await User.create({ externalId: `ingest_${i}`, isActive: true }))

/** As the engine writes a sync: each type's upsert atomic on its own (one statement on PostgreSQL). */
async function writeUser(index: number, mix = templates) {
  let rows = 0
  for (const type of mix[index % mix.length]) {
    rows += await upsertRows(db.connection(), type.table, users[index].id, type.naturalKey, type.rows, clock.now())
  }
  return rows
}

/** The same writes in one transaction per user, each type in its own savepoint (still isolated). */
async function writeUserOneCommit(index: number) {
  return db.transaction(async (trx) => {
    let rows = 0
    for (const type of templates[index % templates.length]) {
      rows += await trx.transaction((savepoint) =>
        upsertRows(savepoint, type.table, users[index].id, type.naturalKey, type.rows, clock.now())
      )
    }
    return rows
  })
}

/** The WAL position: the bytes a pass wrote to PostgreSQL's log (what its commits wait to flush). */
async function walPosition() {
  const result = await db.rawQuery('select pg_current_wal_lsn()::text as lsn')
  return result.rows[0].lsn as string
}

async function pass(from: number, to: number, parallel: number, write = writeUser) {
  const wal = await walPosition()
  const started = performance.now()
  let rows = 0
  for (let i = from; i < to; i += parallel) {
    const batch = []
    for (let k = i; k < Math.min(to, i + parallel); k++) batch.push(write(k))
    rows += (await Promise.all(batch)).reduce((a, b) => a + b, 0)
  }
  const seconds = (performance.now() - started) / 1000
  const walBytes = await db.rawQuery('select pg_wal_lsn_diff(pg_current_wal_lsn(), ?::pg_lsn)::bigint as bytes', [wal])
  const wal_bytes_per_row = Math.round(Number(walBytes.rows[0].bytes) / rows)
  return { users: to - from, rows, seconds: Math.round(seconds * 100) / 100, rows_per_s: Math.round(rows / seconds), wal_bytes_per_row }
}

// Warm-up (JIT, pool connections), not counted: users USERS … USERS+5.
await pass(USERS, USERS + 3, 1)
await pass(USERS + 3, USERS + 6, 1, writeUserOneCommit)
const a = Math.floor(USERS / 3)
const b = 2 * a
const ingest = {
  insert_per_type_commit_sequential: await pass(0, a, 1),
  insert_per_type_commit_4_parallel: await pass(a, b, 4),
  insert_one_commit_per_user_sequential: await pass(b, USERS, 1, writeUserOneCommit),
  resync_per_type_commit_sequential: await pass(0, a, 1),
  resync_per_type_commit_4_parallel: await pass(a, b, 4),
  resync_one_commit_per_user_sequential: await pass(b, USERS, 1, writeUserOneCommit),
}
// Like for like with 2026-11-24: the same passes over that day's row mix, for users not written yet.
const writeUserOf20261124 = (index: number) => writeUser(index, templatesOf20261124)
const offset = USERS + 6
const ingestOf20261124 = {
  insert_per_type_commit_4_parallel: await pass(offset + a, offset + b, 4, writeUserOf20261124),
  resync_per_type_commit_4_parallel: await pass(offset + a, offset + b, 4, writeUserOf20261124),
}
const rowsPerUser = templates.map((types) => types.reduce((s, t) => s + t.rows.length, 0))
emit({
  calls_per_user_sync: {
    first_sync: calls.reduce((s, c) => s + c.first, 0) / calls.length,
    resync: calls.reduce((s, c) => s + c.resync, 0) / calls.length,
    samples: calls,
  },
  rows_per_user_sync: rowsPerUser.reduce((a, b) => a + b, 0) / rowsPerUser.length,
  ingest,
  ingest_row_mix_of_2026_11_24: {
    rows_per_user_sync: templatesOf20261124.reduce((s, types) => s + types.reduce((t, type) => t + type.rows.length, 0), 0) / templatesOf20261124.length,
    passes: ingestOf20261124,
  },
})
await app.terminate()

/*
|--------------------------------------------------------------------------
| npm run bench:capacity — users per Polar client over a simulated day
|--------------------------------------------------------------------------
|
| One Polar client, U registered users, a day compressed by F = 86 400 / BENCH_CAPACITY_DAY_S:
| the simulator's windows are 900/F s and 86 400/F s with Polar's limits for U users (500 + 20·U,
| 5 000 + 100·U), so the budget per compressed window is Polar's budget per real window.
|
| Everything measured runs through HRVault's own processes on PostgreSQL + Redis: a web process
| (`bin/server.ts`, role web) receives the simulator's signed webhook deliveries, `queue:work`
| processes run the PolarEventJobs (targeted fetches) and the SyncUserJobs, every Polar call goes
| through the budget planner. Steps:
|
| 1. U users with stored tokens (`tasks/capacity.ts --mode setup`), registered at the simulator
|    (`POST /v3/users`, so its limits grow with U), then one first sync each (28 days, "yesterday")
|    so the day starts from stored history. Not measured; the simulator's windows restart after it.
| 2. Poll-only: SyncSchedulerService.plan() without a webhook (interval, stretching) for U, and the
|    planner's arithmetic for BENCH_CAPACITY_EXTRAPOLATE users.
| 3. `node ace polar:webhook register` against the simulator (PING, secret stored), plan() again.
| 4. The day: "today" moves on one day; each user's watch sync publishes that day's events
|    (`publishDay(today, {users:[token]})`) at an even spread over the compressed day, and each user's
|    reconciling full sync is enqueued (SyncUserJob, trigger scheduler) one simulated hour after its
|    events. Runs until every reconciliation has finished and every event row is stored.
| 5. Counts from the simulator's request log (every /v3 call, its status), sync_runs, and
|    event → stored latency: the delivery's start to `created_at` of the row the event names.
|
|   BENCH_CAPACITY_USERS=10000         population U (a run takes about 55 minutes on 2 cores)
|   BENCH_CAPACITY_DAY_S=2400          wall seconds of the simulated day (F = 86 400 / this)
|   BENCH_CAPACITY_WORKERS=2           queue:work processes (concurrency BENCH_CAPACITY_CONCURRENCY=4)
|   BENCH_CAPACITY_EXTRAPOLATE=10000   population a smaller run's figures are extrapolated to
|
*/
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { startPolarSimulator } from '#simulators/polar/simulator'
import type { SimRequestLog } from '#simulators/polar/state'
import { baseEnv, cleanupRunDir, createDatabase, RUN_DIR, type BenchDatabase } from './lib/databases.js'
import { cleanUpOnInterrupt } from './lib/interrupt.js'
import { APP_ROOT, lastJson, runNode, sleep, startNode, waitForHttp, type Started } from './lib/processes.js'

const USERS = Number(process.env.BENCH_CAPACITY_USERS ?? 10_000)
const DAY_S = Number(process.env.BENCH_CAPACITY_DAY_S ?? 2400)
const WORKERS = Number(process.env.BENCH_CAPACITY_WORKERS ?? 2)
const CONCURRENCY = Number(process.env.BENCH_CAPACITY_CONCURRENCY ?? 4)
const EXTRAPOLATE = Number(process.env.BENCH_CAPACITY_EXTRAPOLATE ?? 10_000)
const FACTOR = 86_400 / DAY_S
/** The reconciliation of a user runs one simulated hour after its events. */
const RECONCILE_AFTER_MS = (3_600_000 / FACTOR) | 0
const DRAIN_BUDGET_S = Number(process.env.BENCH_CAPACITY_DRAIN_S ?? 300)
// First syncs run at roughly 20 users a second on two cores; allow a third of that.
const SEED_BUDGET_MS = Math.max(600_000, USERS * 150)
const PORT = 43_000 + (process.pid % 1000)

const TARGETS = { users: 10_000, throttled: 0, calls_per_user_day: 30, median_event_to_stored_s: 60 }

const tokenOf = (i: number) => `cap_user_${i}`
const shiftDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]

/** Where the row an event names lives: table, and the column its key is in. */
const EVENT_ROWS: Record<string, [string, string]> = {
  SLEEP: ['sleep_records', 'date'],
  ACTIVITY_SUMMARY: ['daily_activities', 'date'],
  CONTINUOUS_HEART_RATE: ['heart_rate_days', 'date'],
  EXERCISE: ['exercises', 'polar_exercise_id'],
}
/** SleepWise events name a range whose periods mostly began the evening before (already stored by then): not timed. */

cleanUpOnInterrupt()

const startedAt = new Date()
const started = performance.now()
const logLines: string[] = []
const log = (line: string) => {
  logLines.push(line)
  process.stdout.write(`[${Math.round((performance.now() - started) / 1000)} s] ${line}\n`)
}

const TODAY = new Date().toISOString().slice(0, 10)
const YESTERDAY = shiftDate(TODAY, -1)
const sim = await startPolarSimulator({
  today: YESTERDAY,
  window: 28,
  latencyMs: 0,
  rateLimit: { short: 500, long: 5000, shortWindowSeconds: 900 / FACTOR, longWindowSeconds: 86_400 / FACTOR },
  webhooks: { timeoutMs: 30_000 },
})

// Every request the simulator logs, kept here too (its own log keeps the latest 10 000 only).
const seen: SimRequestLog[] = []
let recording = false
const originalPush = sim.requests.push.bind(sim.requests)
sim.requests.push = (...items: SimRequestLog[]) => {
  if (recording) seen.push(...items)
  return originalPush(...items)
}

let db: BenchDatabase | null = null
const procs: Started[] = []
try {
  db = await createDatabase('pg', { redis: true })
  const env: Record<string, string> = {
    ...baseEnv(),
    ...db.env,
    POLAR_API_BASE_URL: sim.url,
    POLAR_AUTH_URL: sim.authUrl,
    POLAR_TOKEN_URL: sim.tokenUrl,
    POLAR_CLIENT_ID: 'capacity-client',
    POLAR_CLIENT_SECRET: 'capacity-secret',
    APP_URL: `http://127.0.0.1:${PORT}`,
    SYNC_DAYS: '28',
    // The webhook run's full-sync interval, compressed like the windows (documentation: the day's
    // reconciliations are enqueued by the benchmark, see the .md).
    POLAR_RECONCILE_INTERVAL_MINUTES: String(1440 / FACTOR),
  }
  const task = async (...args: string[]) => lastJson<any>(await runNode(['bench/tasks/capacity.ts', ...args], env))

  // 1. Population, registered at Polar, with 28 days of stored history.
  log(`capacity: ${USERS} users, day = ${DAY_S} s (×${round(FACTOR, 1)}), windows ${round(900 / FACTOR, 2)} s / ${DAY_S} s`)
  await task('--mode', 'setup', '--users', String(USERS))
  for (let from = 0; from < USERS; from += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, USERS - from) }, async (_, k) => {
        const i = from + k
        const response = await fetch(`${sim.url}/v3/users`, {
          method: 'POST',
          headers: { 'Authorization': `Bearer ${tokenOf(i)}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ 'member-id': `cap_${i}` }),
        })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`registration of user ${i}: ${response.status}`)
      })
    )
  }
  const limits = sim.rateLimitStatus().limit
  log(`setup: ${USERS} users registered, simulator limits ${limits.join(' / ')}`)

  const web = startNode(['bin/server.ts'], { ...env, PORT: String(PORT), HRVAULT_ROLE: 'web' })
  procs.push(web)
  await waitForHttp(`http://127.0.0.1:${PORT}/health`, 120_000, web)
  for (let w = 0; w < WORKERS; w++) procs.push(startNode(['bin/console.ts', 'queue:work', '--concurrency', String(CONCURRENCY)], env))
  const assertAlive = () => {
    for (const proc of procs) if (proc.child.exitCode !== null) throw new Error(`a process exited:\n${proc.output().slice(-4000)}`)
  }

  const seedStart = performance.now()
  await task('--mode', 'seed')
  while ((await count(db, `select count(*) as n from sync_runs where status <> 'running'`)) < USERS) {
    assertAlive()
    if (performance.now() - seedStart > SEED_BUDGET_MS) throw new Error(`seeding took more than ${SEED_BUDGET_MS / 60_000} minutes`)
    await sleep(1000)
  }
  const seedS = (performance.now() - seedStart) / 1000
  const seedStatuses = await db.query<{ status: string; n: string }>(`select status, count(*) as n from sync_runs group by status`)
  log(`seed: ${USERS} first syncs in ${round(seedS)} s (${seedStatuses.map((r) => `${r.status} ${r.n}`).join(', ')})`)

  // 2. Poll-only plan (no webhook yet).
  const pollPlan = await task('--mode', 'plan', '--users-at', [...new Set([USERS, EXTRAPOLATE])].join(','))

  // 3. The webhook, registered through HRVault's command.
  sim.setToday(TODAY)
  sim.resetRateLimits()
  await runNode(['bin/console.ts', 'polar:webhook', 'register', '--url', `http://127.0.0.1:${PORT}/webhooks/polar`], env)
  const hook = sim.webhook()
  if (!hook?.active) throw new Error('webhook not registered')
  const pushPlan = await task('--mode', 'plan')
  log(`webhook registered (${hook.events.join(', ')})`)
  sim.resetRateLimits()

  // 4. The day.
  const firstId = Number((await db.query<{ id: number }>(`select min(id) as id from users`))[0].id)
  const eventOffsets = Array.from({ length: USERS }, (_, i) => Math.round(((i + 0.5) / USERS) * DAY_S * 1000))
  const offsetsFile = fileURLToPath(new URL('capacity_offsets.json', RUN_DIR))
  writeFileSync(offsetsFile, JSON.stringify(eventOffsets.map((o) => o + RECONCILE_AFTER_MS)))
  const dayStart = Date.now() + 15_000
  const runsBefore = await count(db, `select count(*) as n from sync_runs`)
  recording = true
  await task('--mode', 'reconcile', '--start', String(dayStart), '--offsets', offsetsFile)
  log(`day: reconciliations enqueued; events start at +${Math.round((dayStart - Date.now()) / 1000)} s`)

  const deliveries: Array<{ event: string; userId: number | null; at: number; status: number | null; key: string | null }> = []
  const publishing: Promise<void>[] = []
  const lagMs: number[] = []
  for (let i = 0; i < USERS; i++) {
    const due = dayStart + eventOffsets[i]
    while (Date.now() < due) await sleep(Math.min(200, due - Date.now()))
    lagMs.push(Date.now() - due)
    publishing.push(
      sim.publishDay(TODAY, { users: [tokenOf(i)] }).then((batch) => {
        for (const d of batch) {
          const p = d.payload as unknown as Record<string, unknown>
          deliveries.push({
            event: d.event,
            userId: d.userId === null ? null : Number(d.userId),
            at: Date.parse(d.at),
            status: d.status,
            key: (p.entity_id as string | undefined) ?? (p.date as string | undefined) ?? (p.from as string | undefined) ?? null,
          })
        }
      })
    )
    if (i % Math.max(1, Math.floor(USERS / 8)) === 0) {
      assertAlive()
      log(`day: ${i}/${USERS} users published, ${deliveries.length} events delivered, ${seen.length} Polar calls, ${throttled()} × 429`)
    }
  }
  await Promise.all(publishing)
  log(`day: all events delivered (${deliveries.length}); draining reconciliations and event jobs`)

  const drainStart = performance.now()
  let finished = false
  let lastPending = -1
  let stableSince = performance.now()
  while (performance.now() - drainStart < (DRAIN_BUDGET_S + RECONCILE_AFTER_MS / 1000) * 1000) {
    assertAlive()
    const done = await count(db, `select count(*) as n from sync_runs where id > ${runsBefore} and status in ('success', 'partial', 'failed', 'interrupted')`)
    const pending = await pendingEventRows(db, deliveries, firstId)
    if (pending !== lastPending) {
      lastPending = pending
      stableSince = performance.now()
    }
    // Done: every reconciliation finished, and every timed event's row stored (or none appeared for 30 s: the event named nothing new).
    if (done >= USERS && (pending === 0 || performance.now() - stableSince > 30_000)) {
      finished = true
      break
    }
    await sleep(2000)
  }
  recording = false
  const dayWallS = (Date.now() - dayStart) / 1000
  log(`day: ${finished ? 'drained' : 'drain budget hit'} ${round(dayWallS)} s after the day began`)

  // 5. Figures.
  const calls = seen.filter((r) => r.path.startsWith('/v3/'))
  const statuses: Record<string, number> = {}
  for (const r of calls) statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1
  const byEndpoint: Record<string, number> = {}
  for (const r of calls) byEndpoint[r.endpoint] = (byEndpoint[r.endpoint] ?? 0) + 1
  const dataCalls = calls.filter((r) => r.endpoint !== 'webhooks' && r.endpoint !== 'users').length
  const runs = await db.query<{ status: string; n: string; calls: string }>(
    `select status, count(*) as n, sum(provider_calls) as calls from sync_runs where id > ${runsBefore} group by status`
  )
  const reconcileCalls = runs.reduce((s, r) => s + Number(r.calls ?? 0), 0)
  const reconcileRuns = runs.reduce((s, r) => s + Number(r.n), 0)
  const latency = await eventLatencies(db, deliveries, firstId)
  const sortedS = latency.ms.map((ms) => ms / 1000).sort((a, b) => a - b)
  const eventsByType: Record<string, number> = {}
  for (const d of deliveries) eventsByType[d.event] = (eventsByType[d.event] ?? 0) + 1
  const perUserDay = dataCalls / USERS
  const eventCalls = dataCalls - reconcileCalls

  // Peak use of each simulator window by the day's calls (windows start at the first call after a reset).
  const peak = peakWindowUse(calls.map((r) => Date.parse(r.at)), [(900 / FACTOR) * 1000, DAY_S * 1000])
  const limitsAt = (u: number) => [500 + 20 * u, 5000 + 100 * u]
  const [shortLimit, longLimit] = limitsAt(USERS)
  const extrapolated = {
    users: EXTRAPOLATE,
    limits: limitsAt(EXTRAPOLATE),
    calls_per_day: Math.round(perUserDay * EXTRAPOLATE),
    long_window_share: round((perUserDay * EXTRAPOLATE) / limitsAt(EXTRAPOLATE)[1], 3),
    peak_short_window_calls: Math.round((peak[0] / USERS) * EXTRAPOLATE),
    short_window_share: round(((peak[0] / USERS) * EXTRAPOLATE) / limitsAt(EXTRAPOLATE)[0], 3),
    max_users_long_window: perUserDay < 100 ? null : Math.floor(5000 / (perUserDay - 100)),
  }
  const pollCalls = (plan: { effectiveMs: number }) => round((pollPlan.callsPerFullSync * 86_400_000) / plan.effectiveMs, 1)
  const pollOnly = {
    plan_for_users: { users: pollPlan.plan.users, effective_minutes: pollPlan.plan.effectiveMs / 60_000, configured_minutes: pollPlan.plan.configuredMs / 60_000, stretched: pollPlan.plan.stretched },
    calls_per_user_day: pollCalls(pollPlan.plan),
    at: pollPlan.at.map((a: any) => ({ ...a, calls_per_user_day_from_60: round((pollPlan.callsPerFullSync * 1440) / a.effective_minutes_from_60, 1) })),
    users_fit_unstretched: [15, 30, 60, 120, 180, 240].map((m) => ({ interval_minutes: m, max_users: usersFit(m, pollPlan.callsPerFullSync) })),
  }

  const result = {
    date: TODAY,
    started_at: startedAt.toISOString(),
    wall_s: round((performance.now() - started) / 1000),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '', memory_gb: round(totalmem() / 1e9), node: process.version, load_after: loadavg().map((l) => round(l, 2)) },
    setup: { users: USERS, day_wall_s: DAY_S, time_factor: round(FACTOR, 2), short_window_s: round(900 / FACTOR, 3), long_window_s: DAY_S, workers: WORKERS, worker_concurrency: CONCURRENCY, web_processes: 1, database: 'PostgreSQL + Redis', simulator_limits: limits, seed_s: round(seedS), reconcile_after_sim_minutes: 60 },
    measured: {
      finished,
      day_elapsed_wall_s: round(dayWallS),
      users_per_client: USERS,
      provider_calls: calls.length,
      provider_calls_by_status: statuses,
      provider_calls_by_endpoint: byEndpoint,
      throttled_429: statuses['429'] ?? 0,
      data_calls_per_user_day: round(perUserDay, 2),
      event_calls_per_user_day: round(eventCalls / USERS, 2),
      reconcile_calls_per_user_day: round(reconcileCalls / USERS, 2),
      reconcile_runs: Object.fromEntries(runs.map((r) => [r.status, Number(r.n)])),
      reconcile_runs_total: reconcileRuns,
      events_delivered: deliveries.length,
      events_per_user_day: round(deliveries.length / USERS, 2),
      events_by_type: eventsByType,
      deliveries_not_200: deliveries.filter((d) => d.status !== 200).length,
      event_to_stored_s: { count: sortedS.length, median: round(quantile(sortedS, 0.5) ?? NaN, 2), p99: round(quantile(sortedS, 0.99) ?? NaN, 2), max: round(sortedS.at(-1) ?? NaN, 2) },
      events_not_stored: latency.missing,
      events_not_stored_by_type: latency.missingByType,
      event_to_stored_s_by_type: latency.byType,
      events_stored_before_delivery: latency.before,
      publish_lag_ms: { median: quantile([...lagMs].sort((a, b) => a - b), 0.5), max: Math.max(...lagMs) },
      peak_window_calls: { short: peak[0], long: peak[1], short_limit: shortLimit, long_limit: longLimit },
    },
    poll_only: pollOnly,
    push_plan: { configured_minutes: pushPlan.plan.configuredMs / 60_000, effective_minutes: pushPlan.plan.effectiveMs / 60_000, stretched: pushPlan.plan.stretched, webhook: pushPlan.plan.webhook, users: pushPlan.plan.users },
    extrapolated,
    targets: TARGETS,
    log: logLines,
  }

  const dir = new URL('bench/results/', APP_ROOT)
  mkdirSync(dir, { recursive: true })
  const name = `capacity-${TODAY}-${USERS}-users`
  writeFileSync(new URL(`${name}.json`, dir), JSON.stringify(result, null, 2) + '\n')
  writeFileSync(new URL(`${name}.md`, dir), markdown(result))
  log(`wrote bench/results/${name}.json and .md`)
} finally {
  for (const proc of procs) await proc.stop()
  await db?.drop().catch(() => {})
  await sim.close()
  cleanupRunDir()
}
process.exit(0)

/** Users whose full syncs fit 80 % of both windows at interval `minutes` (null: any number), as the scheduler plans. */
function usersFit(minutes: number, calls: number): number | null {
  const limits = [
    { perUser: (calls * 15) / minutes, base: 0.8 * 500, allowance: 0.8 * 20 },
    { perUser: (calls * 1440) / minutes, base: 0.8 * 5000, allowance: 0.8 * 100 },
  ]
  const fits = limits.filter((l) => l.perUser > l.allowance).map((l) => Math.floor(l.base / (l.perUser - l.allowance)))
  return fits.length > 0 ? Math.min(...fits) : null
}

function throttled() {
  let n = 0
  for (const r of seen) if (r.status === 429) n++
  return n
}

async function count(database: BenchDatabase, sql: string): Promise<number> {
  const [row] = await database.query<{ n: number | string }>(sql)
  return Number(row.n)
}

type Delivery = { event: string; userId: number | null; at: number; key: string | null }

/** Loads the deliveries into a table of the bench database (once) and joins them to the stored rows. */
async function eventRows(database: BenchDatabase, deliveries: Delivery[]) {
  await database.query(`create table if not exists bench_events (id serial primary key, event text, polar_user_id text, key text, at_ms bigint)`)
  const [{ n }] = await database.query<{ n: string }>(`select count(*) as n from bench_events`)
  if (Number(n) !== deliveries.length) {
    await database.query(`truncate bench_events`)
    const rows = deliveries.filter((d) => EVENT_ROWS[d.event])
    for (let from = 0; from < rows.length; from += 2000) {
      const chunk = rows.slice(from, from + 2000)
      await database.query(
        `insert into bench_events (event, polar_user_id, key, at_ms) select * from unnest(?::text[], ?::text[], ?::text[], ?::bigint[])`,
        [chunk.map((d) => d.event), chunk.map((d) => String(d.userId)), chunk.map((d) => d.key), chunk.map((d) => d.at)]
      )
    }
  }
  const parts = Object.entries(EVENT_ROWS).map(
    ([event, [table, column]]) =>
      `select e.id, e.event, e.at_ms, (select min(extract(epoch from t.created_at) * 1000) from ${table} t where t.user_id = u.id and t.${column}::text = e.key) as stored_ms
       from bench_events e join users u on u.polar_user_id = e.polar_user_id where e.event = '${event}'`
  )
  return database.query<{ id: number; event: string; at_ms: string; stored_ms: string | null }>(parts.join(' union all '))
}

async function pendingEventRows(database: BenchDatabase, deliveries: Delivery[], _firstId: number): Promise<number> {
  const rows = await eventRows(database, deliveries)
  return rows.filter((r) => r.stored_ms === null).length
}

async function eventLatencies(database: BenchDatabase, deliveries: Delivery[], _firstId: number) {
  const rows = await eventRows(database, deliveries)
  const ms: number[] = []
  let missing = 0
  let before = 0
  const missingByType: Record<string, number> = {}
  const perType: Record<string, number[]> = {}
  for (const row of rows) {
    if (row.stored_ms === null) {
      missing++
      missingByType[row.event] = (missingByType[row.event] ?? 0) + 1
    } else if (Number(row.stored_ms) < Number(row.at_ms)) before++
    else {
      const value = Number(row.stored_ms) - Number(row.at_ms)
      ms.push(value)
      ;(perType[row.event] ??= []).push(value / 1000)
    }
  }
  const byType = Object.fromEntries(
    Object.entries(perType).map(([event, values]) => {
      const sorted = values.sort((a, b) => a - b)
      return [event, { count: sorted.length, median: round(quantile(sorted, 0.5) ?? NaN, 2), p99: round(quantile(sorted, 0.99) ?? NaN, 2) }]
    })
  )
  return { ms, missing, before, missingByType, byType }
}

/** Most calls in any window of each length, windows opening at a call after the previous one closed (as the simulator's do). */
function peakWindowUse(times: number[], lengths: number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b)
  return lengths.map((length) => {
    let peak = 0
    let start = -Infinity
    let n = 0
    for (const t of sorted) {
      if (t >= start + length) {
        start = t
        n = 0
      }
      n++
      peak = Math.max(peak, n)
    }
    return peak
  })
}

function markdown(r: any): string {
  const m = r.measured
  const e = r.extrapolated
  const ok = (pass: boolean) => (pass ? 'yes' : '**no**')
  const lines = [
    `# Capacity benchmark ${r.date}`,
    '',
    `\`npm run bench:capacity\`: one Polar client, ${r.setup.users} registered users, one simulated day compressed ×${r.setup.time_factor} into ${r.setup.day_wall_s} s`,
    `(Polar's windows scaled alike: ${r.setup.short_window_s} s and ${r.setup.long_window_s} s, limits 500 + 20·U = ${r.setup.simulator_limits[0]} and 5 000 + 100·U = ${r.setup.simulator_limits[1]}).`,
    `${r.machine.cpus} cores (${r.machine.model}), Node ${r.machine.node}; PostgreSQL + Redis on loopback; 1 web process, ${r.setup.workers} \`queue:work\` × concurrency ${r.setup.worker_concurrency}; whole run ${r.wall_s} s (of which seeding ${r.setup.seed_s} s).`,
    '',
    '## Measured (webhooks registered)',
    '',
    '| Figure | Measured | Target | Met |',
    '|---|---:|---:|---|',
    m.users_per_client >= r.targets.users
      ? `| Users on one client | ${m.users_per_client} | ≥ ${r.targets.users} | ${ok(m.finished && m.throttled_429 === 0)} |`
      : `| Users on one client | ${m.users_per_client} (run) → ${e.users} (extrapolated) | ≥ ${r.targets.users} | see below |`,
    `| 429 answers from the simulator | ${m.throttled_429} | ${r.targets.throttled} | ${ok(m.throttled_429 === 0)} |`,
    `| Provider calls per user-day | ${m.data_calls_per_user_day} (events ${m.event_calls_per_user_day} + reconciliation ${m.reconcile_calls_per_user_day}) | ≤ ${r.targets.calls_per_user_day} | ${ok(m.data_calls_per_user_day <= r.targets.calls_per_user_day)} |`,
    `| Event → stored, median | ${m.event_to_stored_s.median} s | < ${r.targets.median_event_to_stored_s} s | ${ok(m.event_to_stored_s.median < r.targets.median_event_to_stored_s)} |`,
    `| Event → stored, p99 (max) | ${m.event_to_stored_s.p99} s (${m.event_to_stored_s.max} s) | | |`,
    '',
    `- Events delivered: ${m.events_delivered} (${m.events_per_user_day} per user-day: ${Object.entries(m.events_by_type).map(([k, v]) => `${k} ${v}`).join(', ')}); answered other than 200: ${m.deliveries_not_200}.`,
    `  Latency measured on ${m.event_to_stored_s.count} of them (${Object.entries(m.event_to_stored_s_by_type).map(([k, v]: [string, any]) => `${k}: ${v.count}, median ${v.median} s, p99 ${v.p99} s`).join('; ')}); SleepWise events not timed (their rows mostly exist already);`,
    `  timed events whose row never appeared: ${m.events_not_stored} ${JSON.stringify(m.events_not_stored_by_type)}; stored before delivery: ${m.events_stored_before_delivery}.`,
    `- Polar calls during the day: ${m.provider_calls} (${Object.entries(m.provider_calls_by_status).map(([k, v]) => `${k}: ${v}`).join(', ')}); data calls ${Math.round(m.data_calls_per_user_day * m.users_per_client)}.`,
    `- Reconciling full syncs: ${m.reconcile_runs_total} (${Object.entries(m.reconcile_runs).map(([k, v]) => `${k} ${v}`).join(', ')}).`,
    `- Peak use of one simulator window: short ${m.peak_window_calls.short} of ${m.peak_window_calls.short_limit}, long ${m.peak_window_calls.long} of ${m.peak_window_calls.long_limit}.`,
    `- Day finished and drained: ${m.finished ? 'yes' : '**no** (drain budget hit)'}, ${m.day_elapsed_wall_s} s after the day began; event publishing lag median ${m.publish_lag_ms.median} ms, max ${m.publish_lag_ms.max} ms.`,
    `- Scheduler plan with the webhook: reconciliation every ${r.push_plan.configured_minutes} min configured (compressed day), ${r.push_plan.effective_minutes} min planned${r.push_plan.stretched ? ' (stretched: the planner reckons with real 24 h windows, see "How")' : ''}.`,
    ...(e.users > m.users_per_client ? extrapolation(r) : []),
    '',
    '## Poll-only (no webhook), from the scheduler\'s plan',
    '',
    `SyncSchedulerService.plan() for ${r.poll_only.plan_for_users.users} users and SYNC_INTERVAL_MINUTES=${r.poll_only.plan_for_users.configured_minutes}: full sync every ${r.poll_only.plan_for_users.effective_minutes} min${r.poll_only.plan_for_users.stretched ? ' (stretched)' : ''},`,
    `${r.poll_only.calls_per_user_day} calls per user-day.`,
    '',
    '| Users | Required interval | Interval from 60 min | Calls per user-day |',
    '|---:|---:|---:|---:|',
    ...r.poll_only.at.map((a: any) => `| ${a.users} | ${a.required_minutes} min | ${a.effective_minutes_from_60} min | ${a.calls_per_user_day_from_60} |`),
    '',
    `Users that fit without stretching: ${r.poll_only.users_fit_unstretched.map((u: any) => `${u.interval_minutes} min → ${u.max_users ?? 'any'}`).join(', ')}.`,
    'Beyond that every population fits, but only at a stretched interval (data up to that many minutes old) at the calls per user-day above.',
    '',
    '## How',
    '',
    '- Real code paths: the simulator POSTs signed events to HRVault\'s web process (`POST /webhooks/polar`), which verifies and queues them; `queue:work` processes run PolarEventJob (targeted fetches) and SyncUserJob; every Polar call passes the budget planner, which learns the compressed windows from the simulator\'s `RateLimit-*` headers.',
    '- The webhook is registered with `node ace polar:webhook register`; the users are registered at the simulator (`POST /v3/users`), so its limits are those of U users; history (28 days up to yesterday) is seeded by a first sync per user before the day and not counted.',
    '- The day: "today" moves on one day, each user\'s events are published (`publishDay`) at an even spread over the compressed day, and each user\'s reconciling full sync is enqueued one simulated hour after its events, as the scheduler enqueues it (SyncUserJob, trigger scheduler, delayed). The scheduler process itself is not run: its interval arithmetic uses Polar\'s real 15-minute and 24-hour windows (constants), so with a compressed reconciliation interval it would stretch the interval; its plan is reported instead.',
    '- Calls and 429s come from the simulator\'s request log (every `/v3` request of the day, including webhook management and the reconciliations); latency is from a delivery\'s start to `created_at` of the row the event names (sleep_records, daily_activities, heart_rate_days, exercises; SleepWise events are not timed).',
    '',
  ]
  return lines.join('\n')
}

/** The section that scales a smaller run's per-user figures to BENCH_CAPACITY_EXTRAPOLATE users. */
function extrapolation(r: any): string[] {
  const m = r.measured
  const e = r.extrapolated
  return [
    '',
    `## Extrapolated to ${e.users} users`,
    '',
    `Per-user figures are independent of U (each user's events and one reconciliation a day), and Polar's limits grow linearly with U, so the`,
    `measured per-user rates are scaled: ${e.calls_per_day} calls per day against ${e.limits[1]} (${Math.round(e.long_window_share * 100)} % of the 24-hour window);`,
    `the busiest 15-minute window scaled by ${e.users}/${m.users_per_client}: ${e.peak_short_window_calls} calls against ${e.limits[0]} (${Math.round(e.short_window_share * 100)} %).`,
    `Calls per user-day stay below the daily allowance of 100 per user, so the daily window puts no ceiling on U (${e.max_users_long_window === null ? 'no limit' : `max ${e.max_users_long_window}`}).`,
    `Not measured at ${e.users}: HRVault's own throughput for that population (this run pushed ${m.users_per_client} users' day through in ${r.setup.day_wall_s} s,`,
    `i.e. the event rate of ${Math.round(m.users_per_client * r.setup.time_factor)} users on a real day), nor event latency at a real day's arrival rate (here it is ×${r.setup.time_factor} faster).`,
  ]
}

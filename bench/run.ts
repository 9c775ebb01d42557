/*
|--------------------------------------------------------------------------
| npm run bench
|--------------------------------------------------------------------------
|
| Runs every benchmark on loopback, bounded in time, and writes
| bench/results/<date>.json plus a Markdown summary bench/results/<date>.md.
|
|   BENCH_ONLY=http,sync,ingest,analytics   phases to run (default: all)
|   BENCH_SECONDS=5                         one-second slices per route and connection count (http.ts)
|   BENCH_LOAD_GENERATOR=autocannon|wrk     HTTP load through autocannon even when wrk is installed, or wrk only (lib/load.ts)
|   BENCH_SYNC_BUDGET=75                    seconds a sync scenario may run before it extrapolates
|   BENCH_SYNC_USERS=1,100,1000             user counts of the sync scenarios
|   BENCH_PIN=0                             HTTP runs without CPU pinning (default: servers on the last CPU, load generator on the rest)
|
| Needs PostgreSQL on 127.0.0.1:5432 (trust auth for `postgres`, or
| BENCH_PG_ADMIN_URL) and Redis on 127.0.0.1:6379 (BENCH_REDIS_URL).
|
*/
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { runAnalyticsBench, type AnalyticsRow } from './analytics.js'
import { NPM_START_ENV } from '#tests/helpers/npm_start'
import { HEAVY_ROUTES, runHttpBench, type HttpBenchResult, type ProcessResult } from './http.js'
import { runIngestBench, type IngestResult } from './ingest.js'
import { cleanupRunDir } from './lib/databases.js'
import { polarCeiling, unlimitedFromMinutes } from './lib/polar_budget.js'
import { cleanUpOnInterrupt } from './lib/interrupt.js'
import { APP_ROOT, killAll, NODE } from './lib/processes.js'
import { runSyncScenario, startLoadSimulator, type SyncScenarioResult } from './sync.js'

const only = new Set((process.env.BENCH_ONLY ?? 'http,sync,ingest,analytics').split(',').map((s) => s.trim()))
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const SYNC_BUDGET = Number(process.env.BENCH_SYNC_BUDGET ?? 75)
const SYNC_USERS = (process.env.BENCH_SYNC_USERS ?? '1,100,1000').split(',').map(Number)

/**
 * The read targets are set at 16 connections against a raw node:http server. The figures at one
 * connection (each request a round trip of its own, so a database round trip is most of it) are
 * reported beside each target, not judged.
 */
const TARGET_CONNECTIONS = 16

const TARGETS = {
  /** /health and every cached data answer, × raw node:http, `npm start` on SQLite. */
  cached_ratio_sqlite: 0.5,
  /** Every cached data answer, × raw node:http, PostgreSQL + Redis. */
  cached_ratio_pg: 0.35,
  /** A year of sleep, its CSV and insights with the read cache off, × raw node:http… */
  uncached_ratio: 0.05,
  /** …with p99 under this at 16 connections. */
  uncached_p99_ms: 50,
  ingest_rows_per_s: 20_000,
  recompute_ms_per_year: 10,
  rss_mb_after_load: 200,
}

cleanUpOnInterrupt()

const startedAt = new Date()
const started = performance.now()
const logLines: string[] = []
const log = (line: string) => {
  logLines.push(line)
  process.stdout.write(`${line}\n`)
}
const loads: number[][] = [loadavg()]

const results: {
  http: HttpBenchResult[]
  sync: SyncScenarioResult[]
  ingest: IngestResult | null
  analytics: { sqlite: AnalyticsRow[] | null; pg: AnalyticsRow[] | null }
} = { http: [], sync: [], ingest: null, analytics: { sqlite: null, pg: null } }
const failures: string[] = []

async function phase(name: string, fn: () => Promise<void>) {
  if (!only.has(name.split('/')[0])) return
  try {
    await fn()
  } catch (error) {
    const message = `${name} failed: ${(error as Error).message.split('\n').slice(0, 6).join(' ')}`
    failures.push(message)
    log(message)
  }
  loads.push(loadavg())
}

try {
  let compiled = false
  await phase('http/build', async () => {
    // `npm start` runs `node ace build` output; the bench's entry is its build/bench/server.js.
    const build = spawnSync(NODE, ['ace', 'build', '--ignore-ts-errors'], { cwd: fileURLToPath(APP_ROOT), encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
    if (build.status !== 0) throw new Error(`node ace build exited with ${build.status}: ${(build.stdout + build.stderr).slice(-2000)}`)
    compiled = true
    log('http: node ace build done (the build `npm start` runs)')
  })
  await phase('http/sqlite', async () => {
    results.http.push(await runHttpBench('sqlite', SECONDS, log, compiled))
  })
  await phase('http/pg', async () => {
    results.http.push(await runHttpBench('pg', SECONDS, log, compiled))
  })
  await phase('sync', async () => {
    const sim = await startLoadSimulator()
    try {
      for (const users of SYNC_USERS) {
        for (const workers of [1, 2]) {
          results.sync.push(await runSyncScenario(sim.url, users, workers, SYNC_BUDGET, log))
        }
      }
      // Syncs wait on Polar and the database more than on CPU: more jobs per worker process.
      const most = Math.max(...SYNC_USERS)
      results.sync.push(await runSyncScenario(sim.url, most, 2, SYNC_BUDGET, log, 8))
    } finally {
      await sim.proc.stop()
    }
  })
  await phase('ingest', async () => {
    results.ingest = await runIngestBench(150, log)
  })
  await phase('analytics/sqlite', async () => {
    results.analytics.sqlite = await runAnalyticsBench('sqlite', log)
  })
  await phase('analytics/pg', async () => {
    results.analytics.pg = await runAnalyticsBench('pg', log)
  })
} finally {
  killAll()
  cleanupRunDir()
}

const totalSeconds = Math.round((performance.now() - started) / 100) / 10
const date = startedAt.toISOString().slice(0, 10)
const environment = {
  date: startedAt.toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  load_average_1m_during_run: loads.map((l) => Math.round(l[0] * 100) / 100),
  duration_s: totalSeconds,
  settings: { http_seconds_per_run: SECONDS, sync_budget_s: SYNC_BUDGET, sync_users: SYNC_USERS },
}

// ---- Derived figures and targets ------------------------------------------------------------
const REFERENCE_ROUTES = new Set(['bare JSON route', 'authenticated bare route', 'unknown path (404)'])
const variantOf = (h: HttpBenchResult, name: ProcessResult['variant']) => h.variants.find((v) => v.variant === name) ?? null
/** Each run of a variant's routes with its ratios, per database and connection count. */
const runsOf = (name: ProcessResult['variant'], keep: (route: string) => boolean) =>
  results.http
    .flatMap((h) =>
      (variantOf(h, name)?.routes ?? [])
        .filter((r) => keep(r.name))
        .flatMap((r) =>
          r.runs.map((run) => ({
            database: h.database,
            route: r.name,
            connections: run.connections,
            ratio: run.ratio_to_raw ?? 0,
            ratio_to_raw_same_size: run.ratio_to_raw_same_size ?? null,
            ratio_to_bare: run.ratio_to_bare ?? 0,
            p99_ms: run.p99_ms,
            req_per_s: run.req_per_s,
          }))
        )
    )
    .sort((a, b) => a.ratio - b.ratio)
const cachedRuns = runsOf('npm start', (route) => route === '/health' || !REFERENCE_ROUTES.has(route))
const cachedSqlite = cachedRuns.filter((r) => r.database === 'sqlite')
const cachedPg = cachedRuns.filter((r) => r.database === 'pg' && r.route !== '/health')
const uncachedRuns = runsOf('uncached', (route) => HEAVY_ROUTES.has(route))
const uncachedMet = (r: (typeof uncachedRuns)[number]) => r.ratio >= TARGETS.uncached_ratio && r.p99_ms < TARGETS.uncached_p99_ms
/** The runs a target judges, and the lowest ones at one connection, reported with it. */
const judged = (runs: typeof cachedRuns) => runs.filter((r) => r.connections === TARGET_CONNECTIONS)
const atOne = (runs: typeof cachedRuns) => runs.filter((r) => r.connections === 1)
const bestIngest = results.ingest ? Math.max(...Object.values(results.ingest.ingest).map((p) => p.rows_per_s)) : null
const mixOf20261124 = results.ingest?.ingest_row_mix_of_2026_11_24?.passes
const bestIngestOf20261124 = mixOf20261124 ? Math.max(...Object.values(mixOf20261124).map((p) => p.rows_per_s)) : null
const bestSyncRows = results.sync.length > 0 ? Math.max(...results.sync.map((s) => s.rows_per_s)) : null
const perYear = (rows: AnalyticsRow[] | null) =>
  rows?.map((r) => ({ history: r.history, days: r.days, median_ms: r.recompute_after_sync.median_ms, ms_per_year: Math.round((r.recompute_after_sync.median_ms / (r.days / 365)) * 100) / 100 })) ?? null
const analyticsPerYear = { sqlite: perYear(results.analytics.sqlite), pg: perYear(results.analytics.pg) }
/** Least-squares slope (ms per extra year of history) and intercept of recompute time. */
const fit = (rows: AnalyticsRow[] | null) => {
  if (!rows || rows.length < 2) return null
  const xs = rows.map((r) => r.days / 365)
  const ys = rows.map((r) => r.recompute_after_sync.median_ms)
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length
  const my = ys.reduce((a, b) => a + b, 0) / ys.length
  const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0)
  return { ms_per_extra_year: Math.round(slope * 100) / 100, intercept_ms: Math.round((my - slope * mx) * 100) / 100 }
}
const analyticsFit = { sqlite: fit(results.analytics.sqlite), pg: fit(results.analytics.pg) }
const recomputeMet = (rows: ReturnType<typeof perYear>, line: ReturnType<typeof fit>) =>
  !rows || !line || (line.ms_per_extra_year < TARGETS.recompute_ms_per_year && rows.filter((r) => r.days >= 365).every((r) => r.ms_per_year < TARGETS.recompute_ms_per_year))
const callsResync = results.ingest?.calls_per_user_sync.resync ?? 12
const callsFirst = results.ingest?.calls_per_user_sync.first_sync ?? null
const ceilings = [15, 30, 60, 120, 180, 360, 720, 1440].map((minutes) => polarCeiling(minutes, callsResync))
const rssAfter = results.http.map((h) => ({ database: h.database, mb: variantOf(h, 'npm start')?.rss_mb.after_load ?? null }))

const targets = {
  cached_sqlite_ge_0_5_raw: {
    target: `SQLite, \`npm start\`: /health and every cached data answer ≥ ${TARGETS.cached_ratio_sqlite} × raw node:http req/s at ${TARGET_CONNECTIONS} connections`,
    met: judged(cachedSqlite).length > 0 && judged(cachedSqlite).every((r) => r.ratio >= TARGETS.cached_ratio_sqlite),
    worst: judged(cachedSqlite).slice(0, 4),
    one_connection: atOne(cachedSqlite).slice(0, 4),
  },
  cached_pg_ge_0_35_raw: {
    target: `PostgreSQL + Redis: every cached data answer ≥ ${TARGETS.cached_ratio_pg} × raw node:http req/s at ${TARGET_CONNECTIONS} connections`,
    met: judged(cachedPg).length > 0 && judged(cachedPg).every((r) => r.ratio >= TARGETS.cached_ratio_pg),
    worst: judged(cachedPg).slice(0, 4),
    one_connection: atOne(cachedPg).slice(0, 4),
  },
  uncached_heavy: {
    target: `read cache off: a year of sleep, its CSV and insights ≥ ${TARGETS.uncached_ratio} × raw node:http, p99 < ${TARGETS.uncached_p99_ms} ms at ${TARGET_CONNECTIONS} connections`,
    met: judged(uncachedRuns).length > 0 && judged(uncachedRuns).every(uncachedMet),
    runs: judged(uncachedRuns),
    one_connection: atOne(uncachedRuns),
  },
  sync_ingest_ge_20000_rows_per_s: {
    target: `≥ ${TARGETS.ingest_rows_per_s} rows/s stored into PostgreSQL`,
    met: (bestIngest ?? 0) >= TARGETS.ingest_rows_per_s,
    best_database_ingest_rows_per_s: bestIngest,
    best_end_to_end_sync_rows_per_s: bestSyncRows,
  },
  recompute_linear_lt_10ms_per_year: {
    target: `recompute after sync linear in history and < ${TARGETS.recompute_ms_per_year} ms per year`,
    rule: 'slope of recompute time over history < 10 ms per year, and every history of a year or more < 10 ms per year',
    met:
      recomputeMet(analyticsPerYear.sqlite, analyticsFit.sqlite) &&
      recomputeMet(analyticsPerYear.pg, analyticsFit.pg) &&
      Boolean(analyticsPerYear.sqlite ?? analyticsPerYear.pg),
    per_year: analyticsPerYear,
    linear_fit: analyticsFit,
  },
  rss_lt_200mb_after_load: {
    target: `web RSS < ${TARGETS.rss_mb_after_load} MB after the HTTP run, \`npm start\``,
    met: rssAfter.length > 0 && rssAfter.every((r) => r.mb !== null && r.mb < TARGETS.rss_mb_after_load),
    after_load_mb: rssAfter,
  },
}

const output = {
  benchmark: 'hrvault',
  environment,
  failures,
  targets,
  http: results.http,
  sync: results.sync,
  ingest: results.ingest,
  analytics: results.analytics,
  polar_ceiling: {
    calls_per_user_sync: { first_sync: callsFirst, resync: callsResync },
    daily_limit_never_binds_from_interval_minutes: unlimitedFromMinutes(callsResync),
    by_interval: ceilings,
  },
}

mkdirSync(new URL('bench/results/', APP_ROOT), { recursive: true })
const jsonFile = new URL(`bench/results/${date}.json`, APP_ROOT)
const mdFile = new URL(`bench/results/${date}.md`, APP_ROOT)
writeFileSync(jsonFile, JSON.stringify(output, null, 2) + '\n')
writeFileSync(mdFile, markdown())
log(`written ${jsonFile.pathname} and ${mdFile.pathname} (${totalSeconds} s)`)
process.exitCode = failures.length > 0 ? 1 : 0

// ---- Markdown summary -----------------------------------------------------------------------
function markdown(): string {
  const yes = (met: boolean) => (met ? '**met**' : '**not met**')
  const lines: string[] = []
  lines.push(`# HRVault benchmarks, ${date}`, '')
  lines.push(
    `Node ${environment.node}, ${environment.cores} × ${environment.cpu}, ${environment.memory_gb} GB. ` +
      `Everything on one machine over loopback (load generator, PostgreSQL 15, Redis, simulator and app share the cores). ` +
      `1-minute load average at the phase boundaries: ${environment.load_average_1m_during_run.join(', ')}. Run time ${totalSeconds} s.`,
    ''
  )
  if (failures.length > 0) lines.push('**Failed phases:**', ...failures.map((f) => `- ${f}`), '')

  lines.push('## Targets', '', '| Target | Result | Status |', '|---|---|---|')
  const describe = (rows: typeof cachedRuns) =>
    rows
      .map(
        (w) =>
          `${w.route} (${w.database}, c=${w.connections}): ${w.ratio} × raw${w.ratio_to_raw_same_size ? ` (${w.ratio_to_raw_same_size} × raw with a body of its size)` : ''}, ` +
          `${w.ratio_to_bare} × bare, p99 ${w.p99_ms} ms`
      )
      .join('; ')
  const reportedAtOne = (rows: typeof cachedRuns) => (rows.length > 0 ? `; at one connection (reported, not judged): ${describe(rows)}` : '')
  for (const target of [targets.cached_sqlite_ge_0_5_raw, targets.cached_pg_ge_0_35_raw]) {
    lines.push(`| ${target.target} | lowest: ${describe(target.worst) || 'n/a'}${reportedAtOne(target.one_connection)} | ${yes(target.met)} |`)
  }
  lines.push(`| ${targets.uncached_heavy.target} | ${describe(targets.uncached_heavy.runs) || 'n/a'}${reportedAtOne(targets.uncached_heavy.one_connection)} | ${yes(targets.uncached_heavy.met)} |`)
  lines.push(
    `| ${targets.sync_ingest_ge_20000_rows_per_s.target} | database ingest ${bestIngest ?? 'n/a'} rows/s${bestIngestOf20261124 === null ? '' : ` (${bestIngestOf20261124} over the row mix of 2026-11-24)`}; end-to-end sync ${bestSyncRows ?? 'n/a'} rows/s | ${yes(targets.sync_ingest_ge_20000_rows_per_s.met)} |`
  )
  const years = [
    ...(analyticsPerYear.sqlite ?? []).map((r) => `SQLite ${r.history} ${r.median_ms} ms`),
    ...(analyticsFit.sqlite ? [`SQLite slope ${analyticsFit.sqlite.ms_per_extra_year} ms/year`] : []),
    ...(analyticsPerYear.pg ?? []).map((r) => `PG ${r.history} ${r.median_ms} ms`),
    ...(analyticsFit.pg ? [`PG slope ${analyticsFit.pg.ms_per_extra_year} ms/year`] : []),
  ]
  lines.push(`| ${targets.recompute_linear_lt_10ms_per_year.target} | ${years.join('; ') || 'n/a'} | ${yes(targets.recompute_linear_lt_10ms_per_year.met)} |`)
  const rss = results.http
    .map((h) => {
      const v = variantOf(h, 'npm start')
      return `${h.database}: idle ${v?.rss_mb.idle ?? 'n/a'} MB, after ${v?.rss_mb.after_load ?? 'n/a'} MB (peak ${v?.rss_mb.peak_sampled ?? 'n/a'})`
    })
    .join('; ')
  lines.push(`| ${targets.rss_lt_200mb_after_load.target} | ${rss || 'n/a'} | ${yes(targets.rss_lt_200mb_after_load.met)} |`)
  lines.push('')

  for (const h of results.http) {
    lines.push(`## HTTP, ${h.profile}`, '')
    lines.push(
      `User with ${h.seed.days} days of history (${h.seed.rows_written} rows, ${h.seed.method}, ${h.seed.seconds} s). ` +
        `${SECONDS} slices of 1 s per run after 1 s warm-up, ${h.cpu_placement === 'unpinned' ? 'processes unpinned' : h.cpu_placement}, API key auth, rate limiter on, \`NODE_OPTIONS="${h.variants[0]?.node_options}"\` and ` +
        `${Object.entries(NPM_START_ENV).map(([k, v]) => `\`${k}=${v}\``).join(', ')} as \`npm start\` sets them. ` +
        'Each variant is its own web process. Each route and connection count runs in one-second slices alternating with one-second slices ' +
        'of a raw node:http JSON server (bench/raw_server.ts) on the same CPU, and for the data answers of `npm start` also of the same ' +
        "server answering a fixed body of the route's size; each raw server runs twice, answering inside the request's callback and in " +
        'the next check phase (setImmediate), and at each connection count the faster of the two in three alternating slices is the ' +
        'reference (both rates recorded below): ' +
        '× raw and × raw, same body size compare loads of the same seconds; req/s is ' +
        "over the route's slices, p50 and p99 of all their requests pooled. × bare: × raw of the route over × raw of the bare " +
        'AdonisJS JSON route of the same process; ' +
        "CPU: the web process's user + system " +
        'time per answered request (from /proc), which depends less on what else the machine runs.',
      ''
    )
    for (const v of h.variants) {
      lines.push(`### ${v.variant}: ${v.description}`, '')
      const raw = Object.entries(v.raw)
        .map(
          ([c, r]) =>
            `c=${c}: ${r.before.req_per_s} req/s before, ${r.after.req_per_s} after (${r.cpu_us_per_request} µs CPU/req` +
            `${r.calibration ? `; answering ${r.calibration.answer}: sync ${r.calibration.sync_req_per_s}, deferred ${r.calibration.deferred_req_per_s} req/s` : ''})`
        )
        .join('; ')
      lines.push(`Raw node:http on its own before and after the routes: ${raw}. Load average (1 min) ${v.load_average_1m.start} at the start, ${v.load_average_1m.end} at the end.`, '')
      lines.push(
        '| Route | Bytes | c | req/s | p50 / p99 ms | raw req/s | × raw | × raw, same body size | × bare | CPU µs/req |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
      )
      for (const route of v.routes) {
        for (const run of route.runs) {
          const flag = run.errors ? ` (errors ${run.errors})` : ''
          const sameSize = run.ratio_to_raw_same_size ? `${run.ratio_to_raw_same_size} (raw ${run.raw_same_size_req_per_s} req/s)` : '—'
          lines.push(
            `| ${route.name} | ${route.bytes} | ${run.connections} | ${run.req_per_s}${flag} | ${run.p50_ms} / ${run.p99_ms} | ${run.raw_req_per_s ?? '—'} | ${run.ratio_to_raw ?? '—'} | ${sameSize} | ${run.ratio_to_bare ?? '—'} | ${run.cpu_us_per_request ?? '—'} |`
          )
        }
      }
      const heap = v.memory_after_load ? Object.entries(v.memory_after_load).map(([k, value]) => `${k.replace('_mb', '')} ${value} MB`).join(', ') : 'n/a'
      lines.push('', `RSS idle ${v.rss_mb.idle} MB, after the run ${v.rss_mb.after_load} MB, peak sampled ${v.rss_mb.peak_sampled} MB; V8 after the run: ${heap}.`, '')
    }
  }

  if (results.sync.length > 0) {
    lines.push('## Sync (PostgreSQL + Redis queue, simulator without latency or rate limit, 28 days per user)', '')
    lines.push('| Users | Workers × concurrency | Completed | Wall s | All users s | Rows | Rows/s | Syncs/s | Calls/sync | Mean ms/sync | Worker RSS MB |', '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|')
    for (const s of results.sync) {
      lines.push(
        `| ${s.users} | ${s.workers} × ${s.worker_concurrency} | ${s.completed_syncs}${s.finished ? '' : ' (budget)'} | ${s.wall_s} | ${s.wall_s_all_users}${s.extrapolated ? ' (extrapolated)' : ''} | ${s.rows_stored} | ${s.rows_per_s} | ${s.syncs_per_s} | ${s.provider_calls_per_user_sync} | ${s.mean_sync_ms} | ${s.worker_rss_mb.join(', ')} |`
      )
    }
    lines.push('')
  }

  if (results.ingest) {
    const ing = results.ingest
    lines.push('## Database ingest (PostgreSQL, the sync engine\'s batched upsert, fetch excluded)', '')
    lines.push(`Provider calls per user-sync: first sync ${ing.calls_per_user_sync.first_sync} (exercise details), re-sync ${ing.calls_per_user_sync.resync}. Rows per user-sync: ${ing.rows_per_user_sync}.`, '')
    lines.push('| Pass | Users | Rows | Seconds | Rows/s | WAL bytes/row |', '|---|---:|---:|---:|---:|---:|')
    for (const [name, pass] of Object.entries(ing.ingest)) {
      lines.push(`| ${name.replaceAll('_', ' ')} | ${pass.users} | ${pass.rows} | ${pass.seconds} | ${pass.rows_per_s} | ${pass.wal_bytes_per_row ?? 'n/a'} |`)
    }
    const sameMix = ing.ingest_row_mix_of_2026_11_24
    for (const [name, pass] of Object.entries(sameMix?.passes ?? {})) {
      lines.push(`| ${name.replaceAll('_', ' ')}, row mix of 2026-11-24 (${sameMix!.rows_per_user_sync} rows per user-sync) | ${pass.users} | ${pass.rows} | ${pass.seconds} | ${pass.rows_per_s} | ${pass.wal_bytes_per_row ?? 'n/a'} |`)
    }
    lines.push('')
  }

  for (const [name, rows] of Object.entries(results.analytics)) {
    if (!rows) continue
    lines.push(`## Analytics, ${name === 'pg' ? 'PostgreSQL' : 'SQLite'} (bench/analytics_recompute.ts)`, '')
    lines.push('| History | Recompute after sync, median ms (p95) | ms per year | Insights, median ms (p95) |', '|---|---:|---:|---:|')
    for (const r of rows) {
      const py = Math.round((r.recompute_after_sync.median_ms / (r.days / 365)) * 100) / 100
      lines.push(`| ${r.history} | ${r.recompute_after_sync.median_ms} (${r.recompute_after_sync.p95_ms}) | ${py} | ${r.insights.median_ms} (${r.insights.p95_ms}) |`)
    }
    lines.push('')
  }

  lines.push('## Polar rate-limit ceiling', '')
  lines.push(
    `AccessLink allows 500 + 20·U calls per 15 min and 5000 + 100·U per 24 h. With ${callsResync} calls per steady-state user-sync ` +
      `(first sync ${callsFirst ?? 'n/a'}) and the scheduler spreading each round over the interval:`,
    ''
  )
  lines.push('| Interval | Max users (15 min) | Max users (24 h) | Max users |', '|---:|---:|---:|---:|')
  for (const c of ceilings) {
    const v = (n: number | null) => (n === null ? 'no limit' : String(n))
    lines.push(`| ${c.interval_minutes} min | ${v(c.max_users_15min)} | ${v(c.max_users_24h)} | ${v(c.max_users)} |`)
  }
  lines.push('', `From a ${unlimitedFromMinutes(callsResync)}-minute interval on, the daily limit grows faster with users than their syncs consume it.`, '')
  lines.push('## Log', '', '```', ...logLines, '```', '')
  return lines.join('\n')
}

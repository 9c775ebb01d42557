/*
|--------------------------------------------------------------------------
| npm run bench
|--------------------------------------------------------------------------
|
| Runs every benchmark on loopback, bounded in time, and writes
| bench/results/<date>.json plus a Markdown summary bench/results/<date>.md.
|
|   BENCH_ONLY=http,sync,ingest,analytics   phases to run (default: all)
|   BENCH_SECONDS=5                         autocannon seconds per route and connection count
|   BENCH_SYNC_BUDGET=75                    seconds a sync scenario may run before it extrapolates
|   BENCH_SYNC_USERS=1,100,1000             user counts of the sync scenarios
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
import { runHttpBench, type HttpBenchResult, type ProcessResult } from './http.js'
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

const TARGETS = {
  data_endpoint_ratio: 0.6,
  ingest_rows_per_s: 20_000,
  recompute_ms_per_year: 10,
  rss_mb_after_load: 250,
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
  await phase('http/build', async () => {
    // The compiled variant of the HTTP phase runs `node ace build` output (build/bench/server.js).
    const build = spawnSync(NODE, ['ace', 'build'], { cwd: fileURLToPath(APP_ROOT), encoding: 'utf8' })
    if (build.status !== 0) throw new Error(`node ace build exited with ${build.status}: ${(build.stdout + build.stderr).slice(-2000)}`)
    log('http: node ace build done (compiled variant)')
  })
  await phase('http/sqlite', async () => {
    results.http.push(await runHttpBench('sqlite', SECONDS, log))
  })
  await phase('http/pg', async () => {
    results.http.push(await runHttpBench('pg', SECONDS, log))
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
const REFERENCE_ROUTES = new Set(['bare JSON route', 'authenticated bare route'])
/** Every data route's ratio to the bare route, per database and connection count, of one variant. */
const ratiosOf = (variant: 'cached' | 'uncached') =>
  results.http
    .flatMap((h) =>
      h[variant].routes
        .filter((r) => !REFERENCE_ROUTES.has(r.name))
        .flatMap((r) =>
          r.runs.map((run) => ({
            database: h.database,
            route: r.name,
            connections: run.connections,
            ratio: run.ratio_to_bare ?? 0,
            ratio_to_authenticated: run.ratio_to_authenticated ?? 0,
          }))
        )
    )
    .sort((a, b) => a.ratio - b.ratio)
const dataRatios = ratiosOf('cached')
const uncachedRatios = ratiosOf('uncached')
const bestIngest = results.ingest ? Math.max(...Object.values(results.ingest.ingest).map((p) => p.rows_per_s)) : null
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
const rssAfter = results.http.map((h) => h.cached.rss_mb.after_load ?? 0)
const rssCompiled = results.http.map((h) => h.compiled?.rss_mb.after_load ?? null)

const targets = {
  data_endpoints_ratio_ge_0_6: {
    target: `every data endpoint ≥ ${TARGETS.data_endpoint_ratio} × bare-route req/s`,
    measured_on: 'npm start configuration (read cache on: repeats of a URL are cache hits until the data changes)',
    met: dataRatios.length > 0 && dataRatios.every((r) => r.ratio >= TARGETS.data_endpoint_ratio),
    worst: dataRatios.slice(0, 3),
    uncached_met: uncachedRatios.length > 0 && uncachedRatios.every((r) => r.ratio >= TARGETS.data_endpoint_ratio),
    uncached_worst: uncachedRatios.slice(0, 3),
    uncached_below_target: uncachedRatios.filter((r) => r.ratio < TARGETS.data_endpoint_ratio),
    /** The same ratios against the bare answer behind the API key check and rate limiter: what the data work itself costs. */
    authenticated_met: dataRatios.length > 0 && dataRatios.every((r) => r.ratio_to_authenticated >= TARGETS.data_endpoint_ratio),
    authenticated_worst: [...dataRatios].sort((a, b) => a.ratio_to_authenticated - b.ratio_to_authenticated).slice(0, 3),
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
  rss_lt_250mb_after_load: {
    target: `web RSS < ${TARGETS.rss_mb_after_load} MB after the HTTP run`,
    measured_on: 'npm start configuration (TypeScript run through its loader)',
    met: rssAfter.length > 0 && rssAfter.every((v) => v < TARGETS.rss_mb_after_load),
    after_load_mb: rssAfter,
    compiled_after_load_mb: rssCompiled,
    compiled_met: rssCompiled.length > 0 && rssCompiled.every((v) => v !== null && v < TARGETS.rss_mb_after_load),
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
  const describe = (rows: typeof dataRatios, ratio: 'ratio' | 'ratio_to_authenticated' = 'ratio') =>
    rows.map((w) => `${w.route} (${w.database}, c=${w.connections}): ${w[ratio]}`).join('; ')
  lines.push(`| ${targets.data_endpoints_ratio_ge_0_6.target}, read cache on (\`npm start\`) | lowest: ${describe(targets.data_endpoints_ratio_ge_0_6.worst) || 'n/a'} | ${yes(targets.data_endpoints_ratio_ge_0_6.met)} |`)
  lines.push(`| same, read cache off (every request runs its queries) | lowest: ${describe(targets.data_endpoints_ratio_ge_0_6.uncached_worst) || 'n/a'} | ${yes(targets.data_endpoints_ratio_ge_0_6.uncached_met)} |`)
  const authenticated = describe(targets.data_endpoints_ratio_ge_0_6.authenticated_worst, 'ratio_to_authenticated')
  lines.push(`| same, read cache on, against the bare route behind the API key check and rate limiter | lowest: ${authenticated || 'n/a'} | ${yes(targets.data_endpoints_ratio_ge_0_6.authenticated_met)} |`)
  lines.push(
    `| ${targets.sync_ingest_ge_20000_rows_per_s.target} | database ingest ${bestIngest ?? 'n/a'} rows/s; end-to-end sync ${bestSyncRows ?? 'n/a'} rows/s | ${yes(targets.sync_ingest_ge_20000_rows_per_s.met)} |`
  )
  const years = [
    ...(analyticsPerYear.sqlite ?? []).map((r) => `SQLite ${r.history} ${r.median_ms} ms`),
    ...(analyticsFit.sqlite ? [`SQLite slope ${analyticsFit.sqlite.ms_per_extra_year} ms/year`] : []),
    ...(analyticsPerYear.pg ?? []).map((r) => `PG ${r.history} ${r.median_ms} ms`),
    ...(analyticsFit.pg ? [`PG slope ${analyticsFit.pg.ms_per_extra_year} ms/year`] : []),
  ]
  lines.push(`| ${targets.recompute_linear_lt_10ms_per_year.target} | ${years.join('; ') || 'n/a'} | ${yes(targets.recompute_linear_lt_10ms_per_year.met)} |`)
  const rss = (pick: (h: HttpBenchResult) => ProcessResult | null) =>
    results.http.map((h) => `${h.database}: idle ${pick(h)?.rss_mb.idle ?? 'n/a'} MB, after ${pick(h)?.rss_mb.after_load ?? 'n/a'} MB`).join('; ') || 'n/a'
  lines.push(`| ${targets.rss_lt_250mb_after_load.target}, \`npm start\` (TypeScript loader) | ${rss((h) => h.cached)} | ${yes(targets.rss_lt_250mb_after_load.met)} |`)
  lines.push(`| same, compiled (\`node ace build\` output) | ${rss((h) => h.compiled)} | ${yes(targets.rss_lt_250mb_after_load.compiled_met)} |`)
  lines.push('')

  for (const h of results.http) {
    lines.push(`## HTTP, ${h.profile}`, '')
    lines.push(
      `User with ${h.seed.days} days of history (${h.seed.rows_written} rows, ${h.seed.method}, ${h.seed.seconds} s). ` +
        `${SECONDS} s per run after 1 s warm-up, API key auth, rate limiter on, \`NODE_OPTIONS="${h.cached.node_options}"\` as \`npm start\` sets it. ` +
        'Each variant is its own web process; ratios are to the bare route of the same process.',
      ''
    )
    const variants = [h.cached, h.uncached, h.compiled].filter((v): v is ProcessResult => v !== null)
    lines.push('| Route | Bytes | c | ' + variants.map((v) => `${v.variant.split(':')[0]} req/s (p50/p99 ms) | ratio (authenticated)`).join(' | ') + ' |')
    lines.push('|---|---:|---:|' + variants.map(() => '---:|---:|').join(''))
    for (const route of h.cached.routes) {
      for (const run of route.runs) {
        const cells = variants.map((v) => {
          const other = v.routes.find((r) => r.path === route.path)?.runs.find((r) => r.connections === run.connections)
          if (!other) return '— | —'
          const flag = other.non_2xx || other.errors ? ` (non-2xx ${other.non_2xx}, errors ${other.errors})` : ''
          return `${other.req_per_s}${flag} (${other.p50_ms}/${other.p99_ms}) | ${other.ratio_to_bare ?? '—'}${other.ratio_to_authenticated !== null && route.name !== 'authenticated bare route' ? ` (${other.ratio_to_authenticated})` : ''}`
        })
        lines.push(`| ${route.name} | ${route.bytes} | ${run.connections} | ${cells.join(' | ')} |`)
      }
    }
    lines.push('')
    for (const v of variants) {
      const heap = v.memory_after_load ? Object.entries(v.memory_after_load).map(([k, value]) => `${k.replace('_mb', '')} ${value} MB`).join(', ') : 'n/a'
      lines.push(`- ${v.variant}: RSS idle ${v.rss_mb.idle} MB, after the run ${v.rss_mb.after_load} MB, peak sampled ${v.rss_mb.peak_sampled} MB; V8 after the run: ${heap}.`)
    }
    lines.push('')
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
    lines.push('| Pass | Users | Rows | Seconds | Rows/s |', '|---|---:|---:|---:|---:|')
    for (const [name, pass] of Object.entries(ing.ingest)) lines.push(`| ${name.replaceAll('_', ' ')} | ${pass.users} | ${pass.rows} | ${pass.seconds} | ${pass.rows_per_s} |`)
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

/*
|--------------------------------------------------------------------------
| Benchmark: analytics recompute time per user
|--------------------------------------------------------------------------
|
| Boots the application against a throwaway SQLite file (or DATABASE_URL with
| DB_CONNECTION=pg), stores 90 days, 1, 3 and 10 years of daily history for one
| user each, then times AnalyticsService.recomputeAfterSync (baselines +
| patterns, what runs after every sync) and InsightsService.insights (reads all
| history), after a warm-up on a user of its own. Figures go to
| bench/results/analytics-<date>.json.
|
|   node --import=@poppinss/ts-exec bench/analytics_recompute.ts
|
*/
import 'reflect-metadata'
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Ignitor } from '@adonisjs/core'

const APP_ROOT = new URL('../', import.meta.url)
const RUN_DIR = new URL(`tmp/bench-analytics-${process.pid}/`, APP_ROOT)
const HISTORIES = [
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: '3 years', days: 1095 },
  { label: '10 years', days: 3650 },
]
const WARMUP = 3
/** Recomputes and insights of a warm-up user before the first history is measured. */
const PROCESS_WARMUP = 40
const RUNS = 15

mkdirSync(RUN_DIR, { recursive: true })
process.env.NODE_ENV ??= 'development'
process.env.APP_KEY ??= randomBytes(32).toString('base64url')
process.env.LOG_LEVEL = 'warn'
process.env.SYNC_ENABLED = 'false'
process.env.LOG_DIR = new URL('logs/', RUN_DIR).pathname
process.env.CONFIG_DIR = new URL('config/', RUN_DIR).pathname
process.env.STORAGE_DIR = new URL('storage/', RUN_DIR).pathname
if (process.env.DB_CONNECTION !== 'pg') {
  process.env.DB_CONNECTION = 'sqlite'
  process.env.SQLITE_PATH = new URL('bench.sqlite', RUN_DIR).pathname
}

const app = new Ignitor(APP_ROOT, {
  importer: (path) => import(path.startsWith('.') ? new URL(path, APP_ROOT).href : path),
}).createApp('console')
await app.init()
await import('#start/env')
await app.boot()

const { default: db } = await import('@adonisjs/lucid/services/db')
const { MigrationRunner } = await import('@adonisjs/lucid/migration')
const { default: User } = await import('#models/user')
const { AnalyticsService } = await import('#services/analytics/analytics_service')
const { InsightsService } = await import('#services/analytics/insights_service')
const { ClockService } = await import('#services/clock_service')

const migrator = new MigrationRunner(db, app, { direction: 'up', dryRun: false })
await migrator.run()
if (migrator.error) throw migrator.error

const today = new ClockService().today()
const wave = (i: number, period: number, amp: number) => amp * Math.sin((2 * Math.PI * i) / period)

/** One row per day and source, days ago `days-1` … 0, inserted in chunks. */
async function seedHistory(userId: number, days: number) {
  const createdAt = new Date().toISOString()
  const rows = { nightly_recharges: [] as object[], sleep_records: [] as object[], cardio_loads: [] as object[], daily_activities: [] as object[] }
  for (let i = days - 1; i >= 0; i--) {
    const base = { user_id: userId, date: today.minus({ days: i }).toISODate()!, created_at: createdAt }
    rows.nightly_recharges.push({ ...base, hrv_avg: 50 + wave(i, 11, 6), heart_rate_avg: Math.round(52 + wave(i, 7, 2)) })
    rows.sleep_records.push({ ...base, sleep_score: Math.round(78 + wave(i, 9, 6)) })
    rows.cardio_loads.push({ ...base, cardio_load: 100 + wave(i, 5, 30), cardio_load_ratio: 1 + wave(i, 13, 0.2) })
    rows.daily_activities.push({ ...base, steps: 8000 })
  }
  for (const [table, list] of Object.entries(rows)) {
    for (let k = 0; k < list.length; k += 200) await db.table(table).multiInsert(list.slice(k, k + 200))
  }
}

async function time(fn: () => Promise<unknown>) {
  for (let k = 0; k < WARMUP; k++) await fn()
  const samples: number[] = []
  for (let k = 0; k < RUNS; k++) {
    const start = performance.now()
    await fn()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  const pick = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 100) / 100
  return { median_ms: pick(0.5), p95_ms: pick(0.95), min_ms: pick(0) }
}

const analytics = await app.container.make(AnalyticsService)
const insights = await app.container.make(InsightsService)
// Warm-up on a user of its own (JIT, connection pool, prepared plans), so the first history measured
// does not pay it: measured in the order above, 90 days came out slower than 10 years.
const warmUser = await User.create({ externalId: 'bench_warm_up', isActive: true })
await seedHistory(warmUser.id, 365)
for (let k = 0; k < PROCESS_WARMUP; k++) {
  await analytics.recomputeAfterSync(warmUser.id)
  await insights.insights(warmUser.externalId)
}
const results = []
for (const h of HISTORIES) {
  const user = await User.create({ externalId: `bench_${h.days}`, isActive: true })
  await seedHistory(user.id, h.days)
  const recompute = await time(() => analytics.recomputeAfterSync(user.id))
  const insight = await time(() => insights.insights(user.externalId))
  results.push({ history: h.label, days: h.days, recompute_after_sync: recompute, insights: insight })
  process.stdout.write(
    `${h.label.padEnd(9)} recompute median ${recompute.median_ms} ms (p95 ${recompute.p95_ms})  ` +
      `insights median ${insight.median_ms} ms (p95 ${insight.p95_ms})\n`
  )
}

const date = new Date().toISOString().slice(0, 10)
const suffix = process.env.DB_CONNECTION === 'pg' ? '-pg' : ''
const out = new URL(`bench/results/analytics-${date}${suffix}.json`, APP_ROOT)
writeFileSync(
  out,
  JSON.stringify(
    {
      benchmark: 'analytics recompute per user',
      date: new Date().toISOString(),
      database: process.env.DB_CONNECTION,
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      load_average_1m_at_end: Math.round(loadavg()[0] * 100) / 100,
      warmup_runs: WARMUP,
      process_warmup_runs: PROCESS_WARMUP,
      timed_runs: RUNS,
      results,
    },
    null,
    2
  ) + '\n'
)
process.stdout.write(`written ${out.pathname}\n`)
await app.terminate()
rmSync(RUN_DIR, { recursive: true, force: true })

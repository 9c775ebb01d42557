/*
|--------------------------------------------------------------------------
| Analytics figures: bench/analytics_recompute.ts on SQLite and PostgreSQL
|--------------------------------------------------------------------------
|
| Runs the analytics benchmark as a child process per database and reads its
| JSON. That script writes its own results file; the one committed beside it
| is put back afterwards, so `npm run bench` leaves it untouched.
|
*/
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createDatabase } from './lib/databases.js'
import { APP_ROOT, runNode } from './lib/processes.js'

export interface AnalyticsRow {
  history: string
  days: number
  recompute_after_sync: { median_ms: number; p95_ms: number; min_ms: number }
  insights: { median_ms: number; p95_ms: number; min_ms: number }
}

export async function runAnalyticsBench(kind: 'sqlite' | 'pg', log: (line: string) => void): Promise<AnalyticsRow[]> {
  const date = new Date().toISOString().slice(0, 10)
  const file = new URL(`bench/results/analytics-${date}${kind === 'pg' ? '-pg' : ''}.json`, APP_ROOT)
  const previous = existsSync(file) ? readFileSync(file) : null
  const db = kind === 'pg' ? await createDatabase('pg') : null
  try {
    await runNode(['bench/analytics_recompute.ts'], db ? { ...db.env, LOG_LEVEL: 'warn' } : { DB_CONNECTION: 'sqlite' })
    const results = JSON.parse(readFileSync(file, 'utf8')).results as AnalyticsRow[]
    for (const row of results) {
      log(
        `analytics/${kind}: ${row.history.padEnd(9)} recompute median ${row.recompute_after_sync.median_ms} ms, ` +
          `insights median ${row.insights.median_ms} ms`
      )
    }
    return results
  } finally {
    if (previous) writeFileSync(file, previous)
    else rmSync(file, { force: true })
    await db?.drop()
  }
}

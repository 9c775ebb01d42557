/*
|--------------------------------------------------------------------------
| Sync benchmark (PostgreSQL + Redis)
|--------------------------------------------------------------------------
|
| For each scenario (users × worker processes): a fresh PostgreSQL database
| and Redis prefix, N users with stored tokens and one queued SyncUserJob each
| (28 days), then W `node ace queue:work` processes (concurrency 2 each, the
| configured default, unless a scenario says otherwise) against a loopback Polar simulator with no latency. Wall time runs
| from the first sync's start to the last one's end (sync_runs); stored rows
| are counted in the data tables. A scenario that does not finish within its
| time budget reports what completed and extrapolates.
|
*/
import { performance } from 'node:perf_hooks'
import { baseEnv, countDataRows, createDatabase } from './lib/databases.js'
import { lastJson, rssMb, runNode, sleep, startNode, type Started } from './lib/processes.js'

export interface SyncScenarioResult {
  users: number
  workers: number
  worker_concurrency: number
  completed_syncs: number
  finished: boolean
  statuses: Record<string, number>
  wall_s: number
  /** Wall time for all users, extrapolated from the completed share when the budget ran out. */
  wall_s_all_users: number
  extrapolated: boolean
  rows_stored: number
  rows_per_s: number
  syncs_per_s: number
  rows_per_user_sync: number
  provider_calls_per_user_sync: number
  mean_sync_ms: number
  worker_rss_mb: number[]
}

export async function runSyncScenario(
  simulatorUrl: string,
  users: number,
  workers: number,
  budgetS: number,
  log: (line: string) => void,
  concurrency = 2
): Promise<SyncScenarioResult> {
  const db = await createDatabase('pg', { redis: true })
  const env = { ...baseEnv(), ...db.env, POLAR_API_BASE_URL: simulatorUrl, SYNC_DAYS: '28' }
  const procs: Started[] = []
  try {
    await runNode(['bench/tasks/sync_setup.ts', '--users', String(users)], env)
    for (let w = 0; w < workers; w++) procs.push(startNode(['bin/console.ts', 'queue:work', '--concurrency', String(concurrency)], env))
    const started = performance.now()
    const deadline = started + budgetS * 1000
    let done = 0
    while (performance.now() < deadline) {
      for (const proc of procs) {
        if (proc.child.exitCode !== null) throw new Error(`worker exited:\n${proc.output().slice(-4000)}`)
      }
      const [row] = await db.query<{ n: number | string }>(`select count(*) as n from sync_runs where status <> 'running'`)
      done = Number(row.n)
      if (done >= users) break
      await sleep(250)
    }
    const workerRss = procs.map((p) => rssMb(p.pid) ?? 0)
    for (const proc of procs) await proc.stop()

    const runs = await db.query<{ status: string; provider_calls: number; started_at: Date; finished_at: Date | null }>(
      `select status, provider_calls, started_at, finished_at from sync_runs where status <> 'running'`
    )
    const statuses: Record<string, number> = {}
    for (const run of runs) statuses[run.status] = (statuses[run.status] ?? 0) + 1
    const first = Math.min(...runs.map((r) => new Date(r.started_at).getTime()))
    const last = Math.max(...runs.map((r) => new Date(r.finished_at ?? r.started_at).getTime()))
    const wall = runs.length > 0 ? (last - first) / 1000 : budgetS
    const rows = await countDataRows(db)
    const meanSync = runs.reduce((s, r) => s + (new Date(r.finished_at ?? r.started_at).getTime() - new Date(r.started_at).getTime()), 0) / Math.max(1, runs.length)
    const finished = runs.length >= users
    const result: SyncScenarioResult = {
      users,
      workers,
      worker_concurrency: concurrency,
      completed_syncs: runs.length,
      finished,
      statuses,
      wall_s: round(wall, 2),
      wall_s_all_users: round(finished ? wall : (wall * users) / Math.max(1, runs.length), 1),
      extrapolated: !finished,
      rows_stored: rows,
      rows_per_s: round(rows / Math.max(0.001, wall), 0),
      syncs_per_s: round(runs.length / Math.max(0.001, wall), 2),
      rows_per_user_sync: round(rows / Math.max(1, runs.length), 1),
      provider_calls_per_user_sync: round(runs.reduce((s, r) => s + Number(r.provider_calls), 0) / Math.max(1, runs.length), 2),
      mean_sync_ms: round(meanSync, 0),
      worker_rss_mb: workerRss,
    }
    log(
      `sync: ${users} user(s) × ${workers} worker(s) × concurrency ${concurrency}: ${result.completed_syncs} syncs in ${result.wall_s} s, ` +
        `${result.rows_stored} rows, ${result.rows_per_s} rows/s, ${result.provider_calls_per_user_sync} calls/sync, ` +
        `mean ${result.mean_sync_ms} ms/sync${result.extrapolated ? ` (budget hit; all users ≈ ${result.wall_s_all_users} s)` : ''}`
    )
    return result
  } finally {
    for (const proc of procs) await proc.stop()
    await db.drop()
  }
}

export async function startLoadSimulator(): Promise<{ url: string; proc: Started }> {
  const proc = startNode(['bench/tasks/simulator.ts'], {})
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      return { url: lastJson<{ url: string }>(proc.output()).url, proc }
    } catch {}
    if (proc.child.exitCode !== null) throw new Error(`simulator exited:\n${proc.output()}`)
    await sleep(100)
  }
  throw new Error('simulator did not start')
}

function round(value: number, digits: number) {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

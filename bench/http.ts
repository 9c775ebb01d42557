/*
|--------------------------------------------------------------------------
| HTTP benchmark
|--------------------------------------------------------------------------
|
| One user with three years of history (synced from the simulator, see
| tasks/seed_history.ts), one web process (bench/server.ts, HRVAULT_ROLE=web),
| autocannon on loopback at 1 and 16 connections against the data endpoints
| and, in the same run, the bare JSON route. SQLite runs the self-hosted
| profile (rate limits in the database); PostgreSQL the scale-out one (Redis).
|
*/
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { baseEnv, createDatabase } from './lib/databases.js'
import { load, type LoadResult } from './lib/load.js'
import { APP_ROOT, lastJson, rssMb, runNode, sleep, startNode, waitForHttp } from './lib/processes.js'

export const HTTP_ROUTES = [
  { name: 'bare JSON route', path: '/__bench/bare' },
  { name: 'insights', path: '/api/v1/users/bench/insights' },
  { name: 'sleep?days=365', path: '/api/v1/users/bench/sleep?days=365' },
  { name: 'baselines', path: '/api/v1/users/bench/baselines' },
  { name: 'anomalies', path: '/api/v1/users/bench/anomalies' },
  { name: 'export sleep.csv?days=365', path: '/api/v1/users/bench/export/sleep.csv?days=365' },
]
export const CONNECTIONS = [1, 16]
/**
 * V8 flags of the memory-capped variant: the defaults `npm start` puts in front of the user's own
 * NODE_OPTIONS (package.json), so the run measures what production starts with.
 */
export const TUNED_NODE_OPTIONS = startScriptNodeOptions()

function startScriptNodeOptions(): string {
  const pkg = JSON.parse(readFileSync(new URL('package.json', APP_ROOT), 'utf8')) as { scripts: Record<string, string> }
  const match = /NODE_OPTIONS="([^"$]*?)\s*\$NODE_OPTIONS"/.exec(pkg.scripts.start)
  if (!match) throw new Error('package.json "start" sets no default NODE_OPTIONS')
  return match[1]
}

export interface HttpBenchResult {
  database: 'sqlite' | 'pg'
  profile: string
  seed: { days: number; windows: number; rows_written: number; seconds: number; method: string }
  rss_mb: { idle: number | null; after_load: number | null; peak_sampled: number | null }
  routes: Array<{ name: string; path: string; status: number; bytes: number; runs: Array<LoadResult & { ratio_to_bare: number | null }> }>
  /** V8 heap figures of the default web process after the run. */
  memory_after_load: Record<string, number> | null
  /** The same web process started with TUNED_NODE_OPTIONS, every route at 16 connections. */
  memory_capped: {
    node_options: string
    rss_mb: { idle: number | null; after_load: number | null; peak_sampled: number | null }
    memory_after_load: Record<string, number> | null
    routes: Array<{ name: string; req_per_s: number; p99_ms: number; default_req_per_s: number | null }>
  } | null
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10

async function memoryOf(base: string): Promise<Record<string, number> | null> {
  try {
    const usage = (await (await fetch(`${base}/__bench/memory`)).json()) as Record<string, number>
    return Object.fromEntries(Object.entries(usage).map(([k, v]) => [`${k}_mb`, mb(v)]))
  } catch {
    return null
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/**
 * Starts bench/server.ts. On PostgreSQL, start/migrate.ts can fail with "unable to release database
 * lock" (the migrator's advisory lock is taken and released on different pooled connections); such
 * a start is retried, up to three attempts, and counted in the log.
 */
async function startServer(env: Record<string, string>, nodeOptions = '') {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const server = startNode(['bench/server.ts'], { ...env, PORT: String(port), NODE_OPTIONS: nodeOptions })
    try {
      await waitForHttp(`${base}/health`, 60_000, server)
      return { server, base }
    } catch (error) {
      await server.stop()
      if (attempt >= 3 || !/unable to release database lock/.test((error as Error).message)) throw error
      process.stdout.write(`web start attempt ${attempt} failed on the migration lock; retrying\n`)
    }
  }
}

export async function runHttpBench(kind: 'sqlite' | 'pg', seconds: number, log: (line: string) => void): Promise<HttpBenchResult> {
  const db = await createDatabase(kind, { redis: kind === 'pg' })
  const env = { ...baseEnv(), ...db.env }
  try {
    log(`http/${kind}: seeding 3 years of history from the simulator`)
    const seed = lastJson<{ apiKey: string; rowsWritten: number; windows: number; days: number; seconds: number }>(
      await runNode(['bench/tasks/seed_history.ts', '--days', '1095'], env)
    )
    log(`http/${kind}: seeded ${seed.rowsWritten} rows in ${seed.windows} windows, ${seed.seconds} s`)

    const { server, base } = await startServer(env)
    try {
      await sleep(2000)
      const idle = rssMb(server.pid)
      let peak = idle ?? 0
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.pid) ?? 0)
      }, 250)
      const headers = { 'X-API-Key': seed.apiKey }
      const routes: HttpBenchResult['routes'] = []
      for (const route of HTTP_ROUTES) {
        const probe = await fetch(base + route.path, { headers })
        const body = await probe.arrayBuffer()
        if (probe.status !== 200) throw new Error(`${route.path} answered ${probe.status}: ${Buffer.from(body).toString().slice(0, 500)}`)
        const runs = []
        for (const connections of CONNECTIONS) {
          await load(base + route.path, { connections, seconds: 1, headers })
          const result = await load(base + route.path, { connections, seconds, headers })
          const bare = routes[0]?.runs.find((r) => r.connections === connections)
          const ratio = bare ? Math.round((result.req_per_s / bare.req_per_s) * 1000) / 1000 : null
          runs.push({ ...result, ratio_to_bare: ratio })
          log(
            `http/${kind}: ${route.name.padEnd(26)} c=${String(connections).padStart(2)} ${String(result.req_per_s).padStart(8)} req/s ` +
              `p50 ${result.p50_ms} ms p99 ${result.p99_ms} ms${ratio !== null ? ` ratio ${ratio}` : ''}${result.non_2xx ? ` non-2xx ${result.non_2xx}` : ''}`
          )
        }
        routes.push({ name: route.name, path: route.path, status: probe.status, bytes: body.byteLength, runs })
      }
      clearInterval(sampler)
      await sleep(1000)
      const after = rssMb(server.pid)
      const memoryAfter = await memoryOf(base)
      log(`http/${kind}: web RSS idle ${idle} MB, after load ${after} MB, peak ${peak} MB; heap ${JSON.stringify(memoryAfter)}`)
      await server.stop()

      // The same routes at 16 connections on a web process with capped V8 heap spaces.
      const capped = await startServer(env, TUNED_NODE_OPTIONS)
      let cappedResult: HttpBenchResult['memory_capped'] = null
      try {
        await sleep(2000)
        const cappedIdle = rssMb(capped.server.pid)
        let cappedPeak = cappedIdle ?? 0
        const cappedSampler = setInterval(() => {
          cappedPeak = Math.max(cappedPeak, rssMb(capped.server.pid) ?? 0)
        }, 250)
        const cappedRoutes = []
        for (const route of HTTP_ROUTES) {
          await load(capped.base + route.path, { connections: 16, seconds: 1, headers })
          const result = await load(capped.base + route.path, { connections: 16, seconds, headers })
          const reference = routes.find((r) => r.path === route.path)?.runs.find((r) => r.connections === 16)
          cappedRoutes.push({ name: route.name, req_per_s: result.req_per_s, p99_ms: result.p99_ms, default_req_per_s: reference?.req_per_s ?? null })
        }
        clearInterval(cappedSampler)
        await sleep(1000)
        const cappedAfter = rssMb(capped.server.pid)
        cappedResult = {
          node_options: TUNED_NODE_OPTIONS,
          rss_mb: { idle: cappedIdle, after_load: cappedAfter, peak_sampled: Math.max(cappedPeak, cappedAfter ?? 0) },
          memory_after_load: await memoryOf(capped.base),
          routes: cappedRoutes,
        }
        log(
          `http/${kind}: capped web (${TUNED_NODE_OPTIONS}) RSS idle ${cappedIdle} MB, after load ${cappedAfter} MB; ` +
            cappedRoutes.map((r) => `${r.name} ${r.req_per_s} (default ${r.default_req_per_s})`).join(', ')
        )
      } finally {
        await capped.server.stop()
      }
      return {
        database: kind,
        profile: kind === 'pg' ? 'PostgreSQL + Redis (rate limits in Redis)' : 'SQLite (rate limits in the database)',
        seed: {
          days: seed.days,
          windows: seed.windows,
          rows_written: seed.rowsWritten,
          seconds: seed.seconds,
          method: 'back-filled through the sync engine from the Polar simulator in 28-day windows',
        },
        rss_mb: { idle, after_load: after, peak_sampled: Math.max(peak, after ?? 0) },
        routes,
        memory_after_load: memoryAfter,
        memory_capped: cappedResult,
      }
    } finally {
      await server.stop()
    }
  } finally {
    await db.drop()
  }
}

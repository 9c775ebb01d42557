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
import { existsSync, readFileSync } from 'node:fs'
import { freePort } from '#tests/helpers/free_port'
import { baseEnv, createDatabase } from './lib/databases.js'
import { load, type LoadResult } from './lib/load.js'
import { APP_ROOT, lastJson, rssMb, runNode, sleep, startNode, waitForHttp } from './lib/processes.js'

export const HTTP_ROUTES = [
  { name: 'bare JSON route', path: '/api/__bench/bare' },
  { name: 'authenticated bare route', path: '/api/__bench/authenticated' },
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

/** One route measured at some connection counts, each run with its ratio to the bare route of the same process. */
export interface RouteResult {
  name: string
  path: string
  status: number
  bytes: number
  /** ratio_to_authenticated: to the bare answer behind the API key check and rate limiter (the fixed cost of every data route). */
  runs: Array<LoadResult & { ratio_to_bare: number | null; ratio_to_authenticated: number | null }>
}

/** One web process under load: how it was started, its routes and its memory. */
export interface ProcessResult {
  /** What the variant is and why it is measured. */
  variant: string
  node_options: string
  /** RESPONSE_CACHE_MB of the process (0: read cache off). */
  response_cache_mb: number
  compiled: boolean
  rss_mb: { idle: number | null; after_load: number | null; peak_sampled: number | null }
  memory_after_load: Record<string, number> | null
  routes: RouteResult[]
}

export interface HttpBenchResult {
  database: 'sqlite' | 'pg'
  profile: string
  seed: { days: number; windows: number; rows_written: number; seconds: number; method: string }
  /**
   * `npm start`'s configuration (its V8 flags, read cache on): after the first request of a URL,
   * repeats are cache hits until the user's data changes.
   */
  cached: ProcessResult
  /** The same with the read cache off: every request runs its handler and queries. */
  uncached: ProcessResult
  /** The cached configuration from `node ace build` output (no TypeScript loader), 16 connections. */
  compiled: ProcessResult | null
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

/**
 * Starts bench/server.ts (or its compiled build/bench/server.js). On PostgreSQL, start/migrate.ts
 * can fail with "unable to release database lock" (the migrator's advisory lock is taken and
 * released on different pooled connections); such a start is retried, up to three attempts.
 */
async function startServer(env: Record<string, string>, nodeOptions: string, compiled = false) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const entry = compiled ? 'build/bench/server.js' : 'bench/server.ts'
    const server = startNode([entry], { ...env, PORT: String(port), NODE_OPTIONS: nodeOptions }, { compiled })
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

interface VariantOptions {
  variant: string
  responseCacheMb: number
  compiled?: boolean
  connections: number[]
}

/** Starts one web process, loads every route at each connection count, and samples its memory. */
async function measureProcess(
  kind: string,
  env: Record<string, string>,
  headers: Record<string, string>,
  seconds: number,
  options: VariantOptions,
  log: (line: string) => void
): Promise<ProcessResult> {
  const label = `http/${kind}/${options.variant.split(':')[0]}`
  const { server, base } = await startServer(
    { ...env, RESPONSE_CACHE_MB: String(options.responseCacheMb) },
    TUNED_NODE_OPTIONS,
    options.compiled
  )
  try {
    await sleep(2000)
    const idle = rssMb(server.pid)
    let peak = idle ?? 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid) ?? 0)
    }, 250)
    const routes: RouteResult[] = []
    for (const route of HTTP_ROUTES) {
      const probe = await fetch(base + route.path, { headers })
      const body = await probe.arrayBuffer()
      if (probe.status !== 200) throw new Error(`${route.path} answered ${probe.status}: ${Buffer.from(body).toString().slice(0, 500)}`)
      const runs = []
      for (const connections of options.connections) {
        await load(base + route.path, { connections, seconds: 1, headers })
        const result = await load(base + route.path, { connections, seconds, headers })
        const ratioTo = (name: string) => {
          const reference = routes.find((r) => r.name === name)?.runs.find((r) => r.connections === connections)
          return reference ? Math.round((result.req_per_s / reference.req_per_s) * 1000) / 1000 : null
        }
        const ratio = ratioTo('bare JSON route')
        const ratioAuthenticated = ratioTo('authenticated bare route')
        runs.push({ ...result, ratio_to_bare: ratio, ratio_to_authenticated: ratioAuthenticated })
        log(
          `${label}: ${route.name.padEnd(26)} c=${String(connections).padStart(2)} ${String(result.req_per_s).padStart(8)} req/s ` +
            `p50 ${result.p50_ms} ms p99 ${result.p99_ms} ms${ratio !== null ? ` ratio ${ratio}` : ''}` +
            `${ratioAuthenticated !== null ? ` (authenticated ${ratioAuthenticated})` : ''}${result.non_2xx ? ` non-2xx ${result.non_2xx}` : ''}`
        )
      }
      routes.push({ name: route.name, path: route.path, status: probe.status, bytes: body.byteLength, runs })
    }
    clearInterval(sampler)
    await sleep(1000)
    const after = rssMb(server.pid)
    const memoryAfter = await memoryOf(base)
    log(`${label}: web RSS idle ${idle} MB, after load ${after} MB, peak ${peak} MB; heap ${JSON.stringify(memoryAfter)}`)
    return {
      variant: options.variant,
      node_options: TUNED_NODE_OPTIONS,
      response_cache_mb: options.responseCacheMb,
      compiled: options.compiled ?? false,
      rss_mb: { idle, after_load: after, peak_sampled: Math.max(peak, after ?? 0) },
      memory_after_load: memoryAfter,
      routes,
    }
  } finally {
    await server.stop()
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
    const headers = { 'X-API-Key': seed.apiKey }
    const measure = (options: VariantOptions) => measureProcess(kind, env, headers, seconds, options, log)
    const cached = await measure({
      variant: 'cached: npm start configuration, read cache on (repeats of a URL are cache hits)',
      responseCacheMb: 32,
      connections: CONNECTIONS,
    })
    const uncached = await measure({
      variant: 'uncached: read cache off (RESPONSE_CACHE_MB=0), every request runs its queries',
      responseCacheMb: 0,
      connections: CONNECTIONS,
    })
    let compiled: ProcessResult | null = null
    if (existsSync(new URL('build/bench/server.js', APP_ROOT))) {
      compiled = await measure({ variant: 'compiled: node ace build output, read cache on', responseCacheMb: 32, compiled: true, connections: [16] })
    } else {
      log(`http/${kind}: no build/bench/server.js (node ace build failed?); compiled variant skipped`)
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
      cached,
      uncached,
      compiled,
    }
  } finally {
    await db.drop()
  }
}

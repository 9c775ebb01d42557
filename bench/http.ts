/*
|--------------------------------------------------------------------------
| HTTP benchmark
|--------------------------------------------------------------------------
|
| One user with a year of history (synced from the simulator, see
| tasks/seed_history.ts), web processes under load (wrk, else autocannon: lib/load.ts) on loopback at 1 and
| 16 connections. Every figure is also given as a ratio to a raw node:http
| JSON server (bench/raw_server.ts) measured in the same seconds: a route's
| load runs in one-second slices alternating with the raw server's (and, for
| data answers, a raw server sending a body of the same size), see
| measureAlongside; and to the bare AdonisJS route of the same process (the
| ratio of the two × raw figures). The web process's CPU time per request is
| read from /proc. SQLite runs the self-hosted profile (one process, `npm
| start` defaults); PostgreSQL + Redis the scale-out one.
|
| Variants, each its own process:
|   npm start  `npm start` as shipped: the compiled build (build/bench/server.js,
|              the entry bin/start.mjs runs plus the bench routes), HRVAULT_ROLE=all,
|              read cache on, `npm start`'s V8 flags
|   uncached   the same with RESPONSE_CACHE_MB=0: every request runs its queries
|   reference  the earlier reference configuration: TypeScript loader
|              (bench/server.ts), HRVAULT_ROLE=web, read cache on
|
*/
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePort } from '#tests/helpers/free_port'
import { NPM_START_ENV, NPM_START_NODE_OPTIONS } from '#tests/helpers/npm_start'
import { baseEnv, createDatabase } from './lib/databases.js'
import { LOAD_GENERATOR, load, mergeLoads, type LoadResult, type LoadSample } from './lib/load.js'
import { APP_ROOT, lastJson, rssMb, runNode, sleep, startNode, waitForHttp, type Started } from './lib/processes.js'

export const HISTORY_DAYS = 365
const USER = '/api/v1/users/bench'

export const HTTP_ROUTES = [
  { name: 'bare JSON route', path: '/api/__bench/bare', data: false },
  { name: '/health', path: '/health', data: false },
  { name: 'authenticated bare route', path: '/api/__bench/authenticated', data: false },
  { name: 'unknown path (404)', path: '/api/v1/nothing-here', data: false },
  { name: 'insights', path: `${USER}/insights`, data: true },
  { name: 'sleep?days=365', path: `${USER}/sleep?days=365`, data: true },
  { name: 'baselines', path: `${USER}/baselines`, data: true },
  { name: 'anomalies', path: `${USER}/anomalies`, data: true },
  { name: 'export sleep.csv?days=365', path: `${USER}/export/sleep.csv?days=365`, data: true },
  // The same answers to a client that accepts gzip (browsers, most HTTP libraries): held answers go compressed.
  { name: 'sleep?days=365, gzip', path: `${USER}/sleep?days=365`, data: true, gzip: true },
  { name: 'export sleep.csv?days=365, gzip', path: `${USER}/export/sleep.csv?days=365`, data: true, gzip: true },
] as Array<{ name: string; path: string; data: boolean; gzip?: true }>
/** The answers with uncached targets: a year of sleep, its CSV and insights. */
export const HEAVY_ROUTES = new Set(['insights', 'sleep?days=365', 'export sleep.csv?days=365'])
export const CONNECTIONS = [1, 16]

export interface Run extends LoadResult {
  /** The raw node:http server's req/s over the seconds interleaved with this run's (measureAlongside). */
  raw_req_per_s: number
  ratio_to_raw: number | null
  ratio_to_bare: number | null
  /** CPU time (user + system) of the web process per answered request, µs. */
  cpu_us_per_request: number | null
  /**
   * Data answers of the `npm start` variant: req/s of the raw node:http server answering a fixed
   * body of the route's size at the same connection count (the ceiling for that many bytes), over
   * seconds interleaved with this run's, and the ratio to it.
   */
  raw_same_size_req_per_s?: number
  ratio_to_raw_same_size?: number | null
  /** How that raw server answered (the faster way at this connection count, RawReference). */
  raw_same_size_calibration?: RawCalibration
}

export interface RouteResult {
  name: string
  path: string
  status: number
  bytes: number
  runs: Run[]
}

export interface ProcessResult {
  variant: 'npm start' | 'uncached' | 'reference'
  description: string
  node_options: string
  response_cache_mb: number
  compiled: boolean
  role: string
  /** The raw node:http server at each connection count: before and after this process's routes. */
  raw: Record<string, { before: LoadResult; after: LoadResult; mean_req_per_s: number; cpu_us_per_request: number; calibration?: RawCalibration }>
  load_average_1m: { start: number; end: number }
  rss_mb: { idle: number | null; after_load: number | null; peak_sampled: number | null }
  memory_after_load: Record<string, number> | null
  routes: RouteResult[]
}

export interface HttpBenchResult {
  database: 'sqlite' | 'pg'
  profile: string
  seed: { days: number; windows: number; rows_written: number; seconds: number; method: string }
  /** Which CPUs the servers and the load generator ran on (BENCH_PIN). */
  cpu_placement: string
  variants: ProcessResult[]
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
const ratio = (a: number, b: number | undefined) => (b ? Math.round((a / b) * 1000) / 1000 : null)

/** CPU time (user + system) a process has used, µs (Linux /proc). */
export function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100
}

async function memoryOf(base: string): Promise<Record<string, number> | null> {
  try {
    const usage = (await (await fetch(`${base}/__bench/memory`)).json()) as Record<string, number>
    return Object.fromEntries(Object.entries(usage).map(([k, v]) => [`${k}_mb`, mb(v)]))
  } catch {
    return null
  }
}

/** The last error lines the web process logged (LOG_DIR), for a failed probe's message. */
function loggedErrors(dir: string | undefined): string {
  if (!dir || !existsSync(dir)) return 'none'
  const lines = readdirSync(dir).flatMap((file) => readFileSync(`${dir}/${file}`, 'utf8').split('\n'))
  return lines.filter((line) => /"level":(50|60)/.test(line)).slice(-2).join(' | ').slice(0, 3000) || 'none'
}

/** A server under load and what to send it. */
interface Target {
  server: Started
  url: string
  headers?: Record<string, string>
}

/**
 * A route measured side by side with its references (the raw node:http servers, on the same CPU;
 * none for the raw server's own record): after a 1 s warm-up, `seconds` rounds of one second on
 * each reference and one on the route, so every ratio compares loads taken within the same few
 * seconds. On a shared virtual machine the rate of the same server moves by ±15 % from one second
 * to the next and by more over minutes; measured minutes apart (as before and after a process's
 * routes), a ratio was as much the machine's moment as the route. Returns the route's load over its slices (lib/load.ts
 * mergeLoads: p50 and p99 of all their requests together), its CPU per request and each
 * reference's req/s over its own slices.
 */
async function measureAlongside(route: Target, references: Target[], connections: number, seconds: number) {
  await load(route.url, { connections, seconds: 1, headers: route.headers })
  const slices: LoadSample[] = []
  const referenceSlices: LoadSample[][] = references.map(() => [])
  let cpu = 0
  for (let round = 0; round < seconds; round++) {
    for (const [index, reference] of references.entries()) {
      referenceSlices[index].push(await load(reference.url, { connections, seconds: 1, headers: reference.headers }))
    }
    const before = cpuUs(route.server.pid)
    slices.push(await load(route.url, { connections, seconds: 1, headers: route.headers }))
    cpu += cpuUs(route.server.pid) - before
  }
  const result = mergeLoads(slices)
  return {
    result,
    cpu: Math.round(cpu / Math.max(1, result.requests)),
    references: referenceSlices.map((each) => mergeLoads(each).req_per_s),
  }
}

/**
 * CPU placement of the HTTP runs (BENCH_PIN, on by default with two or more CPUs and `taskset`):
 * every measured server (raw node:http and HRVault alike) on the last CPU, the load generator (this
 * process) on the others, so each pair is measured in the same placement instead of wherever the
 * scheduler puts them (which moved the raw server's rate by up to 2× between runs at 1 connection).
 * PostgreSQL and Redis stay unpinned.
 */
export const PIN = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0
export const SERVER_CPUS = PIN ? String(availableParallelism() - 1) : undefined
export const LOAD_CPUS = `0-${Math.max(0, availableParallelism() - 2)}`
export const ALL_CPUS = `0-${availableParallelism() - 1}`

/** Pins or unpins every thread of this process (the load generator). */
export function pinSelf(cpus: string) {
  if (PIN) spawnSync('taskset', ['-a', '-c', '-p', cpus, String(process.pid)])
}

/** How raw_server.ts answers: inside the request's callback, or in the next check phase (setImmediate). */
export type RawAnswer = 'sync' | 'deferred'

/** A raw reference's two ways of answering, loaded in alternating slices at one connection count. */
export interface RawCalibration {
  answer: RawAnswer
  sync_req_per_s: number
  deferred_req_per_s: number
}

/** One-second slices of each way of answering when a raw reference is calibrated. */
const CALIBRATION_SECONDS = 3

async function startRaw(bodyBytes: number, answer: RawAnswer): Promise<Target> {
  const port = await freePort()
  const server = startNode(['bench/raw_server.ts'], {
    ...NPM_START_ENV,
    PORT: String(port),
    BODY_BYTES: String(bodyBytes),
    RAW_ANSWER: answer,
    NODE_OPTIONS: NPM_START_NODE_OPTIONS,
  }, { cpus: SERVER_CPUS })
  const url = `http://127.0.0.1:${port}/`
  await waitForHttp(url, 20_000, server)
  return { server, url }
}

/**
 * The raw node:http reference: raw_server.ts answering at once and deferred, both running on the
 * servers' CPU. Which of the two is faster depends on the machine and the load (on a virtual
 * machine where waking the load generator is expensive, answering a turn's requests together won
 * by 40–55 % at 16 connections; at one connection, with nothing to answer together, answering at
 * once wins), so at each connection count the two are first loaded in alternating slices and the
 * faster is the reference from then on: a ratio is never to the slower of two equally bare servers.
 */
class RawReference {
  readonly calibrations = new Map<number, RawCalibration>()

  constructor(protected servers: Record<RawAnswer, Target>) {}

  static async start(bodyBytes = 0): Promise<RawReference> {
    return new RawReference({ sync: await startRaw(bodyBytes, 'sync'), deferred: await startRaw(bodyBytes, 'deferred') })
  }

  /** The faster way of answering at this connection count (calibrated on first use). */
  async target(connections: number): Promise<Target> {
    let calibration = this.calibrations.get(connections)
    if (!calibration) {
      await load(this.servers.deferred.url, { connections, seconds: 1 })
      const { result, references } = await measureAlongside(this.servers.sync, [this.servers.deferred], connections, CALIBRATION_SECONDS)
      const [sync, deferred] = [result.req_per_s, references[0]]
      calibration = { answer: deferred > sync ? 'deferred' : 'sync', sync_req_per_s: sync, deferred_req_per_s: deferred }
      this.calibrations.set(connections, calibration)
    }
    return this.servers[calibration.answer]
  }

  async stop() {
    await this.servers.sync.server.stop()
    await this.servers.deferred.server.stop()
  }
}

/** `answered deferred (sync 18 000, deferred 25 000 req/s)` for the log. */
function describeCalibration(calibration: RawCalibration | undefined): string {
  if (!calibration) return ''
  return `answered ${calibration.answer} (sync ${calibration.sync_req_per_s}, deferred ${calibration.deferred_req_per_s} req/s)`
}

/**
 * Starts bench/server.ts (or its compiled build/bench/server.js). On PostgreSQL, start/migrate.ts
 * can fail with "unable to release database lock" (the migrator's advisory lock is taken and
 * released on different pooled connections); such a start is retried, up to three attempts.
 */
async function startServer(env: Record<string, string>, compiled: boolean) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    // The compiled build runs from build/, as bin/start.mjs runs it (globs such as the queue's job locations resolve there).
    const entry = compiled ? 'bench/server.js' : 'bench/server.ts'
    const cwd = compiled ? fileURLToPath(new URL('build/', APP_ROOT)) : undefined
    const server = startNode([entry], { ...NPM_START_ENV, ...env, PORT: String(port), NODE_OPTIONS: NPM_START_NODE_OPTIONS }, { compiled, cwd, cpus: SERVER_CPUS })
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
  variant: ProcessResult['variant']
  description: string
  responseCacheMb: number
  compiled: boolean
  role: 'all' | 'web'
  connections: number[]
  routes: typeof HTTP_ROUTES
}

/** Starts one web process, measures the raw server and every route at each connection count, and samples memory. */
async function measureProcess(
  kind: string,
  env: Record<string, string>,
  headers: Record<string, string>,
  seconds: number,
  options: VariantOptions,
  log: (line: string) => void
): Promise<ProcessResult> {
  const label = `http/${kind}/${options.variant}`
  const loadStart = loadavg()[0]
  const { server, base } = await startServer(
    { ...env, RESPONSE_CACHE_MB: String(options.responseCacheMb), HRVAULT_ROLE: options.role },
    options.compiled
  )
  const raw = await RawReference.start()
  try {
    // The web process has finished starting (migrations, workers) before anything is measured.
    await sleep(2000)
    const rawBefore = new Map<number, Awaited<ReturnType<typeof measureAlongside>>>()
    for (const connections of options.connections) {
      rawBefore.set(connections, await measureAlongside(await raw.target(connections), [], connections, seconds))
    }
    await sleep(1000)
    const idle = rssMb(server.pid)
    let peak = idle ?? 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid) ?? 0)
    }, 250)
    const routes: RouteResult[] = []
    for (const route of options.routes) {
      const routeHeaders = { ...headers, 'Accept-Encoding': route.gzip ? 'gzip' : 'identity' }
      const probe = await fetch(base + route.path, { headers: routeHeaders })
      const body = await probe.arrayBuffer()
      // The bytes on the wire (fetch decodes a compressed body).
      const bytes = Number(probe.headers.get('content-length') ?? body.byteLength)
      const expected = route.path.includes('nothing-here') ? 404 : 200
      if (probe.status !== expected) {
        throw new Error(`${route.path} answered ${probe.status}: ${Buffer.from(body).toString().slice(0, 500)}; log: ${loggedErrors(env.LOG_DIR)}`)
      }
      // Data answers of `npm start` are also measured beside a raw server sending a body of their size.
      const sameSize = route.data && options.variant === 'npm start' ? await RawReference.start(bytes) : null
      const runs: Run[] = []
      try {
        for (const connections of options.connections) {
          const references = [await raw.target(connections)]
          if (sameSize) references.push(await sameSize.target(connections))
          const { result, cpu, references: rates } = await measureAlongside({ server, url: base + route.path, headers: routeHeaders }, references, connections, seconds)
          const ratioToRaw = ratio(result.req_per_s, rates[0])
          // Both sides normalised by the raw server of their own seconds.
          const bare = routes.find((r) => r.name === 'bare JSON route')?.runs.find((r) => r.connections === connections)
          const ratioToBare = ratioToRaw === null ? null : ratio(ratioToRaw, bare?.ratio_to_raw ?? undefined)
          const run: Run = { ...result, raw_req_per_s: rates[0], ratio_to_raw: ratioToRaw, ratio_to_bare: ratioToBare, cpu_us_per_request: cpu }
          if (sameSize) {
            run.raw_same_size_req_per_s = rates[1]
            run.ratio_to_raw_same_size = ratio(result.req_per_s, rates[1])
            run.raw_same_size_calibration = sameSize.calibrations.get(connections)
          }
          runs.push(run)
          log(
            `${label}: ${route.name.padEnd(26)} c=${String(connections).padStart(2)} ${String(result.req_per_s).padStart(8)} req/s ` +
              `p50 ${result.p50_ms} ms p99 ${result.p99_ms} ms, ${cpu} µs CPU/req, raw ${rates[0]} req/s ×raw ${ratioToRaw}` +
              `${sameSize ? ` (raw with a ${bytes}-byte body ${rates[1]} req/s, ${describeCalibration(run.raw_same_size_calibration)}, ×raw same size ${run.ratio_to_raw_same_size})` : ''}` +
              `${ratioToBare !== null ? ` ×bare ${ratioToBare}` : ''}${result.non_2xx && expected === 200 ? ` non-2xx ${result.non_2xx}` : ''}${result.errors ? ` errors ${result.errors}` : ''}`
          )
        }
      } finally {
        await sameSize?.stop()
      }
      routes.push({ name: route.name, path: route.path, status: probe.status, bytes, runs })
    }
    clearInterval(sampler)
    await sleep(1000)
    const after = rssMb(server.pid)
    const memoryAfter = await memoryOf(base)
    // The raw server again, after the routes (for the record: each route's ratios use its own slices).
    const rawResults: ProcessResult['raw'] = {}
    for (const connections of options.connections) {
      const before = rawBefore.get(connections)!
      const again = await measureAlongside(await raw.target(connections), [], connections, seconds)
      const mean = Math.round(((before.result.req_per_s + again.result.req_per_s) / 2) * 10) / 10
      const calibration = raw.calibrations.get(connections)!
      rawResults[String(connections)] = { before: before.result, after: again.result, mean_req_per_s: mean, cpu_us_per_request: before.cpu, calibration }
      log(
        `${label}: raw node:http              c=${String(connections).padStart(2)} ${before.result.req_per_s} req/s before, ${again.result.req_per_s} after, ` +
          `${before.cpu} µs CPU/req, ${describeCalibration(calibration)}`
      )
    }
    log(`${label}: web RSS idle ${idle} MB, after load ${after} MB, peak ${peak} MB; heap ${JSON.stringify(memoryAfter)}`)
    return {
      variant: options.variant,
      description: options.description,
      node_options: NPM_START_NODE_OPTIONS,
      response_cache_mb: options.responseCacheMb,
      compiled: options.compiled,
      role: options.role,
      raw: rawResults,
      load_average_1m: { start: Math.round(loadStart * 100) / 100, end: Math.round(loadavg()[0] * 100) / 100 },
      rss_mb: { idle, after_load: after, peak_sampled: Math.max(peak, after ?? 0) },
      memory_after_load: memoryAfter,
      routes,
    }
  } finally {
    await server.stop()
    await raw.stop()
  }
}

export async function runHttpBench(
  kind: 'sqlite' | 'pg',
  seconds: number,
  log: (line: string) => void,
  compiledAvailable: boolean
): Promise<HttpBenchResult> {
  const db = await createDatabase(kind, { redis: kind === 'pg' })
  // `npm start` defaults: the bench only adds an unreachable rate-limit ceiling and no Polar sync.
  const env: Record<string, string> = { ...baseEnv(), ...db.env, SYNC_ENABLED: 'false' }
  try {
    log(`http/${kind}: seeding ${HISTORY_DAYS} days of history from the simulator`)
    const seed = lastJson<{ apiKey: string; rowsWritten: number; windows: number; days: number; seconds: number }>(
      await runNode(['bench/tasks/seed_history.ts', '--days', String(HISTORY_DAYS)], env)
    )
    log(`http/${kind}: seeded ${seed.rowsWritten} rows in ${seed.windows} windows, ${seed.seconds} s`)
    const headers = { 'X-API-Key': seed.apiKey }
    const run = (options: VariantOptions) => measureProcess(kind, env, headers, seconds, options, log)
    pinSelf(LOAD_CPUS)
    const variants: ProcessResult[] = []
    if (compiledAvailable) {
      variants.push(
        await run({
          variant: 'npm start',
          description: '`npm start` as shipped: compiled build, HRVAULT_ROLE=all, read cache on (repeats of a URL are cache hits)',
          responseCacheMb: 32,
          compiled: true,
          role: 'all',
          connections: CONNECTIONS,
          routes: HTTP_ROUTES,
        })
      )
      variants.push(
        await run({
          variant: 'uncached',
          description: 'the same with the read cache off (RESPONSE_CACHE_MB=0): every request runs its queries',
          responseCacheMb: 0,
          compiled: true,
          role: 'all',
          connections: CONNECTIONS,
          // Nothing is compressed with the cache off: the gzip client's answers are the same.
          routes: HTTP_ROUTES.filter((r) => (r.data && !r.gzip) || r.name === 'bare JSON route'),
        })
      )
    } else {
      log(`http/${kind}: no build/bench/server.js (node ace build failed?); npm start variants skipped`)
    }
    variants.push(
      await run({
        variant: 'reference',
        description: 'earlier reference configuration: TypeScript loader (bench/server.ts), HRVAULT_ROLE=web, read cache on',
        responseCacheMb: 32,
        compiled: false,
        role: 'web',
        connections: [16],
        routes: HTTP_ROUTES.filter((r) => !r.gzip),
      })
    )
    return {
      database: kind,
      profile: kind === 'pg' ? 'PostgreSQL + Redis (rate limits in Redis)' : 'SQLite (one process: rate limits counted in process)',
      seed: {
        days: seed.days,
        windows: seed.windows,
        rows_written: seed.rowsWritten,
        seconds: seed.seconds,
        method:
          kind === 'pg'
            ? 'back-filled through the sync engine from the Polar simulator in 28-day windows, then vacuumed and analysed (as autovacuum leaves a history that accumulated over time)'
            : 'back-filled through the sync engine from the Polar simulator in 28-day windows',
      },
      cpu_placement: PIN
        ? `web and raw node:http servers on CPU ${SERVER_CPUS}, the load generator (${LOAD_GENERATOR}) on CPU ${LOAD_CPUS} (taskset); PostgreSQL and Redis unpinned`
        : 'unpinned',
      variants,
    }
  } finally {
    pinSelf(ALL_CPUS)
    await db.drop()
  }
}

/*
|--------------------------------------------------------------------------
| HTTP load on loopback: wrk, else autocannon
|--------------------------------------------------------------------------
|
| wrk (Debian package `wrk`) when it is installed: one thread, written in C, it
| reads a response's body without looking at it. autocannon (the fallback, a
| dev dependency) appends every body to a JavaScript string, a UTF-8 decode per
| response on the load generator's core: measured on this machine, a raw
| node:http server answering 3.4 kB of gzip bytes reached 26 000 req/s under
| autocannon against 49 000 for 3.4 kB of ASCII, and 68 000 / 64 000 under wrk.
| So under autocannon large and compressed answers measure the client.
| BENCH_LOAD_GENERATOR=autocannon forces the fallback; BENCH_LOAD_GENERATOR=wrk
| fails when wrk is missing instead of falling back.
|
*/
import { execFile, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import autocannon from 'autocannon'

export interface LoadResult {
  connections: number
  duration_s: number
  requests: number
  req_per_s: number
  p50_ms: number
  p99_ms: number
  non_2xx: number
  errors: number
  bytes_per_response: number
}

/** One run of the load generator: its figures and its latency distribution. */
export interface LoadSample extends LoadResult {
  /** [percentile, latency ms] pairs up to [100, the maximum], for pooling slices (mergeLoads). */
  quantiles_ms: Array<[number, number]>
}

export interface LoadOptions {
  connections: number
  seconds: number
  headers?: Record<string, string>
}

const WRK_REPORT = fileURLToPath(new URL('./wrk_report.lua', import.meta.url))

/** The installed wrk's version, null when it is missing or autocannon is asked for. */
const WRK_VERSION: string | null = (() => {
  if (process.env.BENCH_LOAD_GENERATOR === 'autocannon') return null
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' })
  const version = /wrk (?:debian\/)?(\d+(?:\.\d+)+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1]
  if (probe.error || !version) {
    if (process.env.BENCH_LOAD_GENERATOR === 'wrk') throw new Error('BENCH_LOAD_GENERATOR=wrk but wrk is not installed (apt-get install -y wrk)')
    return null
  }
  return version
})()

/** The load generator of this run as the results name it: `wrk 4.1.0, one thread` or `autocannon`. */
export const LOAD_GENERATOR = WRK_VERSION ? `wrk ${WRK_VERSION}, one thread` : 'autocannon'

const execFileAsync = promisify(execFile)

const round2 = (value: number) => Math.round(value * 100) / 100

export async function load(url: string, options: LoadOptions): Promise<LoadSample> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(url)) throw new Error(`benchmarks run on loopback only: ${url}`)
  return WRK_VERSION ? loadWithWrk(url, options) : loadWithAutocannon(url, options)
}

/**
 * Percentile `q` of the slices' latencies pooled: the lowest latency below which at least q % of all
 * their requests fall, each slice's share read off its distribution (its percentiles at every
 * percent, every tenth above 90, and its maximum) and weighted by its requests.
 */
function pooledPercentile(slices: LoadSample[], q: number): number {
  const total = slices.reduce((sum, slice) => sum + slice.requests, 0)
  const candidates = [...new Set(slices.flatMap((slice) => slice.quantiles_ms.map(([, ms]) => ms)))].sort((a, b) => a - b)
  const below = (slice: LoadSample, ms: number) => {
    let share = 0
    for (const [percentile, value] of slice.quantiles_ms) if (value <= ms) share = percentile
    return share
  }
  for (const ms of candidates) {
    const share = slices.reduce((sum, slice) => sum + below(slice, ms) * slice.requests, 0) / Math.max(1, total)
    if (share >= q) return ms
  }
  return candidates.at(-1) ?? 0
}

/**
 * One load measured as consecutive slices (see bench/http.ts): requests, non-2xx and errors
 * summed, req/s over the slices' own durations, p50 and p99 of their latencies pooled.
 */
export function mergeLoads(slices: LoadSample[]): LoadResult {
  const sum = (pick: (r: LoadSample) => number) => slices.reduce((total, r) => total + pick(r), 0)
  const requests = sum((r) => r.requests)
  // A slice's measured duration (the load generator's own clock): its requests at its rate.
  const seconds = sum((r) => (r.req_per_s > 0 ? r.requests / r.req_per_s : r.duration_s))
  return {
    connections: slices[0].connections,
    duration_s: sum((r) => r.duration_s),
    requests,
    req_per_s: Math.round((requests / Math.max(seconds, 1e-9)) * 10) / 10,
    p50_ms: round2(pooledPercentile(slices, 50)),
    p99_ms: round2(pooledPercentile(slices, 99)),
    non_2xx: sum((r) => r.non_2xx),
    errors: sum((r) => r.errors),
    bytes_per_response: Math.round(sum((r) => r.bytes_per_response * r.requests) / Math.max(1, requests)),
  }
}

async function loadWithWrk(url: string, options: LoadOptions): Promise<LoadSample> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', WRK_REPORT]
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`)
  const { stdout } = await execFileAsync('wrk', [...args, url], { maxBuffer: 1 << 20 })
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '))
  if (!line) throw new Error(`wrk printed no report:\n${stdout}`)
  const r = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number> & { quantiles_us: Array<[number, number]> }
  const responses = Math.max(1, r.requests)
  return {
    connections: options.connections,
    duration_s: options.seconds,
    requests: r.requests,
    req_per_s: Math.round((r.requests / (r.duration_us / 1e6)) * 10) / 10,
    p50_ms: round2(r.p50_us / 1000),
    p99_ms: round2(r.p99_us / 1000),
    non_2xx: r.status,
    errors: r.connect + r.read + r.write + r.timeout,
    bytes_per_response: Math.round(r.bytes / responses),
    quantiles_ms: r.quantiles_us.map(([percentile, us]) => [percentile, us / 1000]),
  }
}

/** autocannon's latency percentiles (ms) as [percentile, ms] pairs. */
const AUTOCANNON_PERCENTILES: Array<[number, string]> = [
  [1, 'p1'], [2.5, 'p2_5'], [10, 'p10'], [25, 'p25'], [50, 'p50'], [75, 'p75'], [90, 'p90'],
  [97.5, 'p97_5'], [99, 'p99'], [99.9, 'p99_9'], [99.99, 'p99_99'], [99.999, 'p99_999'], [100, 'max'],
]

async function loadWithAutocannon(url: string, options: LoadOptions): Promise<LoadSample> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
  })
  const responses = Math.max(1, result.requests.total)
  return {
    connections: options.connections,
    duration_s: options.seconds,
    requests: result.requests.total,
    req_per_s: Math.round(result.requests.average * 10) / 10,
    p50_ms: round2(result.latency.p50),
    p99_ms: round2(result.latency.p99),
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes_per_response: Math.round(result.throughput.total / responses),
    quantiles_ms: AUTOCANNON_PERCENTILES.map(([percentile, key]) => [percentile, Number((result.latency as unknown as Record<string, number>)[key])]),
  }
}

/*
|--------------------------------------------------------------------------
| HTTP load through autocannon (loopback only)
|--------------------------------------------------------------------------
*/
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

export async function load(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(url)) throw new Error(`benchmarks run on loopback only: ${url}`)
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
    p50_ms: Math.round(result.latency.p50 * 100) / 100,
    p99_ms: Math.round(result.latency.p99 * 100) / 100,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes_per_response: Math.round(result.throughput.total / responses),
  }
}

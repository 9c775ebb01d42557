import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { bareHostname, guardedLookup, isPublicAddress, OpsAddressRefusedError } from '#services/coolify/ops_target_policy'

/** One raw answer of an ops API. `body` is null when it exceeded the size limit. */
export interface OpsHttpAnswer {
  status: number
  contentType: string
  body: string | null
  /** `Retry-After` and `RateLimit-*` of the answer (digits only), passed on with a 429. */
  limitHeaders: Record<string, string>
}

const LIMIT_HEADERS = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']

/** The rate-limit headers of an answer whose value is a plain number (nothing else is relayed). */
function limitHeadersOf(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of LIMIT_HEADERS) {
    const value = headers[name]
    if (typeof value === 'string' && /^\d{1,10}$/.test(value.trim())) out[name] = value.trim()
  }
  return out
}

export interface OpsHttpRequest {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  timeoutMs: number
  /** COOLIFY_OPS_ALLOW_PRIVATE: plain http and non-public addresses allowed. */
  allowPrivate: boolean
  /** Largest body read; a longer one is cut off (answer body null). */
  maxBytes: number
}

/**
 * One HTTP request to an ops API over a fresh connection (no pooled socket, no redirect
 * followed). The socket connects only to an address that passed the target policy, and the
 * headers (the ops token) are written only once it is connected. Rejects on any failure to
 * connect or to receive the whole answer in time.
 */
export function requestOps(url: URL, init: OpsHttpRequest): Promise<OpsHttpAnswer> {
  const host = bareHostname(url)
  if (!init.allowPrivate && (url.protocol !== 'https:' || (isIP(host) !== 0 && !isPublicAddress(host)))) {
    return Promise.reject(new OpsAddressRefusedError('target refused'))
  }
  const transport = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: init.method,
      headers: init.body === undefined ? init.headers : { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) },
      agent: false,
      lookup: guardedLookup(init.allowPrivate),
      signal: AbortSignal.timeout(init.timeoutMs),
    })
    request.once('error', reject)
    request.once('response', (response) => {
      const chunks: Buffer[] = []
      let size = 0
      const contentType = String(response.headers['content-type'] ?? '')
      const limitHeaders = limitHeadersOf(response.headers)
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > init.maxBytes) {
          response.destroy()
          resolve({ status: response.statusCode ?? 0, contentType, body: null, limitHeaders })
          return
        }
        chunks.push(chunk)
      })
      response.once('error', reject)
      response.once('close', () => {
        if (!response.complete) reject(new Error('The ops API closed the connection before the end of its answer.'))
      })
      response.once('end', () =>
        resolve({ status: response.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8'), limitHeaders })
      )
    })
    request.end(init.body)
  })
}

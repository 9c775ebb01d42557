import { createServer, type ServerResponse } from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { buildSeed, type Json, type SeedOptions, type SimState } from '#simulators/coolify/seed'
import { routes, type SimResponse } from '#simulators/coolify/routes'
import { readBody } from '#simulators/read_body'

/**
 * A loopback HTTP server that speaks the Coolify v4 API (`/api/v1/...`) with realistic
 * shapes: Bearer auth, POST-only state changes (405 on GET from v4.2), 400 "already
 * running", 422 `{message, errors}` validation errors, plus slow or failing answers on demand.
 * Used by the client tests, the functional tests and `npm run demo`.
 */

export interface SimulatorOptions extends SeedOptions {
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** The accepted API token (Bearer). */
  token?: string
  /** Whether the token may read sensitive data (env values, passwords, webhook secrets). */
  readSensitive?: boolean
}

export interface RecordedRequest {
  method: string
  /** Path relative to `/api/v1`, e.g. `/deploy`. */
  path: string
  query: Record<string, string>
  body: unknown
  auth: string | null
}

/** A failure injected into one route (`'GET /applications/{uuid}'`) or every route (`'*'`). */
export interface Fault {
  /** Wait this long before answering (or before failing). */
  delayMs?: number
  /** Answer with this status instead of the real handler. */
  status?: number
  /** Body of that answer; defaults to Coolify's `{message}` shape. */
  body?: unknown
  /** Headers of that answer (Retry-After of a 429). */
  headers?: Record<string, string>
  /** Destroy the socket without an answer (connection reset). */
  reset?: boolean
  /** Apply only to the next N matching requests (default: until cleared). */
  times?: number
}

export interface CoolifySimulator {
  url: string
  token: string
  close(): Promise<void>
  requests: RecordedRequest[]
  state: SimState
  setFault(route: string, fault: Fault | null): void
  clearFaults(): void
  /** Requests recorded for one method and path (exact path match). */
  requestsTo(method: string, path: string): RecordedRequest[]
}

const SENSITIVE_KEYS = new Set([
  'value',
  'real_value',
  'manual_webhook_secret_github',
  'manual_webhook_secret_gitlab',
  'manual_webhook_secret_bitbucket',
  'manual_webhook_secret_gitea',
  'http_basic_auth_password',
  'internal_db_url',
  'external_db_url',
  'logs',
  'sentinel_token',
])

/** What Coolify's removeSensitiveData does for a token without read:sensitive. */
function hideSensitive(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(hideSensitive)
  if (data && typeof data === 'object') {
    const out: Json = {}
    for (const [k, v] of Object.entries(data as Json)) {
      if (SENSITIVE_KEYS.has(k) || /password/.test(k)) continue
      out[k] = hideSensitive(v)
    }
    return out
  }
  return data
}

function send(res: ServerResponse, r: SimResponse) {
  const headers: Record<string, string> = { ...(r.headers ?? {}) }
  let payload: string
  if (typeof r.body === 'string') {
    headers['content-type'] ??= 'text/html; charset=UTF-8'
    payload = r.body
  } else {
    headers['content-type'] ??= 'application/json'
    payload = JSON.stringify(r.body ?? null)
  }
  res.writeHead(r.status, headers)
  res.end(payload)
}


/** Starts a simulator on loopback; resolves once it listens. */
export async function start(opts: SimulatorOptions = {}): Promise<CoolifySimulator> {
  const token = opts.token ?? `sim-${randomBytes(12).toString('hex')}`
  const readSensitive = opts.readSensitive ?? true
  const state = buildSeed(opts)
  const requests: RecordedRequest[] = []
  const faults = new Map<string, Fault>()

  const matchRoute = (method: string, path: string) => {
    for (const route of routes) {
      const m = route.regex.exec(path)
      if (!m) continue
      if (!route.methods.includes(method)) {
        return { route, params: m.groups ?? {}, methodMismatch: true }
      }
      return { route, params: m.groups ?? {}, methodMismatch: false }
    }
    return null
  }

  const takeFault = (key: string): Fault | null => {
    const fault = faults.get(key) ?? faults.get('*') ?? null
    if (!fault) return null
    const used = faults.get(key) ? key : '*'
    if (fault.times !== undefined) {
      fault.times -= 1
      if (fault.times <= 0) faults.delete(used)
    }
    return fault
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://simulator')
      const raw = await readBody(req)
      let body: unknown = null
      let badJson = false
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw)
        } catch {
          badJson = true
        }
      }
      const query = Object.fromEntries(url.searchParams.entries())
      const method = (req.method ?? 'GET').toUpperCase()

      if (url.pathname === '/api/health' || url.pathname === '/api/v1/health') {
        return send(res, { status: 200, body: 'OK', headers: { 'content-type': 'text/plain' } })
      }
      if (!url.pathname.startsWith('/api/v1/')) {
        return send(res, { status: 404, body: { message: 'Not found.' } })
      }
      const path = url.pathname.slice('/api/v1'.length).replace(/\/+$/, '') || '/'
      requests.push({ method, path, query, body, auth: req.headers.authorization ?? null })

      const match = matchRoute(method, path)
      const fault = takeFault(match ? `${method} ${match.route.pattern}` : `${method} ${path}`)
      if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs))
      if (fault?.reset) {
        req.socket.destroy()
        return
      }
      if (fault?.status) {
        return send(res, { status: fault.status, body: fault.body ?? { message: 'Server Error' }, headers: fault.headers })
      }

      const auth = req.headers.authorization ?? ''
      if (!auth.startsWith('Bearer ') || auth.slice(7) !== token) {
        return send(res, { status: 401, body: { message: 'Unauthenticated.' } })
      }
      if (badJson) return send(res, { status: 400, body: { message: 'Invalid JSON.' } })
      if (!match) return send(res, { status: 404, body: { message: 'Not found.' } })
      if (match.methodMismatch) {
        if (method === 'GET' && match.route.postOnly) {
          return send(res, {
            status: 405,
            body: { message: 'This endpoint has changed to a POST request.' },
            headers: { allow: 'POST' },
          })
        }
        return send(res, {
          status: 405,
          body: { message: `The ${method} method is not supported for route api/v1${path}.` },
          headers: { allow: match.route.methods.join(', ') },
        })
      }

      const result = match.route.handle({ state, params: match.params, query, body, method })
      if (!readSensitive && result.status < 300 && typeof result.body !== 'string') {
        result.body = hideSensitive(result.body)
      }
      send(res, result)
    } catch (error) {
      send(res, { status: 500, body: { message: (error as Error).message } })
    }
  })

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve))
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  return {
    url: `http://${host}:${address.port}`,
    token,
    requests,
    state,
    setFault(route, fault) {
      if (fault === null) faults.delete(route)
      else faults.set(route, { ...fault })
    },
    clearFaults() {
      faults.clear()
    },
    requestsTo(method, path) {
      return requests.filter((r) => r.method === method.toUpperCase() && r.path === path)
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    },
  }
}

export { SIM_UUIDS } from '#simulators/coolify/seed'

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { authorizeDecision, authorizePage, tokenEndpoint, usersRoute } from '#simulators/polar/account_routes'
import type { SimProfile } from '#simulators/polar/profile'
import { dataRoute, endpointOf, polarError, type SimRequest, type SimResponse } from '#simulators/polar/routes'
import {
  SimState,
  toFault,
  type SimEndpoint,
  type SimFaultInput,
  type SimOptions,
  type SimRateLimitStatus,
  type SimRequestLog,
} from '#simulators/polar/state'
import {
  emitEvent,
  publishDay,
  publishableTokens,
  webhooksRoute,
  type SimWebhook,
  type SimWebhookOptions,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventFields,
} from '#simulators/polar/webhooks'
import { readBody } from '#simulators/read_body'

export type { SimEndpoint, SimFault, SimFaultInput, SimOptions, SimRateLimitStatus, SimRequestLog } from '#simulators/polar/state'
export type { SimProfile } from '#simulators/polar/profile'
export { WEBHOOK_EVENTS } from '#simulators/polar/webhooks'
export type {
  SimWebhook,
  SimWebhookOptions,
  WebhookDelivery,
  WebhookEvent,
  WebhookEventFields,
  WebhookPayload,
} from '#simulators/polar/webhooks'

/** A running Polar simulator. */
export interface PolarSimulator {
  /** Base URL, e.g. `http://127.0.0.1:40123` (= POLAR_API_BASE_URL). */
  url: string
  /** Authorize page (= POLAR_AUTH_URL). */
  authUrl: string
  /** Token endpoint (= POLAR_TOKEN_URL). */
  tokenUrl: string
  /** Requests seen (the latest 10 000), oldest first; timeout-held requests have `status: null`. */
  requests: SimRequestLog[]
  /** Requests of one endpoint name. */
  requestsTo(endpoint: SimEndpoint): SimRequestLog[]
  /** Forgets the request log. */
  clearRequests(): void
  /** Injects a fault into an endpoint name or `'*'` (every `/v3` endpoint); null removes it. */
  setFault(endpoint: SimEndpoint | '*', fault: SimFaultInput | null): void
  /** Removes every fault. */
  clearFaults(): void
  /** Moves "today" (the window slides with it). */
  setToday(date: string): void
  /** Current "today". */
  today(): string
  /** Changes the profile of a token or Polar user id (e.g. `{ biosensing: true, missingRate: 0 }`). */
  setProfile(tokenOrUserId: string, overrides: Partial<SimProfile>): void
  /** Polar user id the simulator derives for a token. */
  polarUserIdOf(token: string): number

  /** The webhook created through `POST /v3/webhooks` (a copy; `secret` = `signature_secret_key`), or null. */
  webhook(): SimWebhook | null
  /**
   * Sends one event for a user (token or Polar user id) now. Missing fields are filled in: `date` /
   * `from` / `to` default to today, `entity_id` to the user's latest exercise, `timestamp` to now, the
   * `url` from those. Resolves with the delivery (the first copy with `duplicates`), or null when
   * nothing was sent (no webhook, inactive, or the event is not subscribed).
   */
  emitEvent(tokenOrPolarUserId: string | number, event: WebhookEvent, fields?: WebhookEventFields): Promise<WebhookDelivery | null>
  /**
   * Sends the events a watch sync of `date` (default today; never after today) causes, for every
   * user in `knownUsers()` or only `options.users`: SLEEP, ACTIVITY_SUMMARY, EXERCISE per session,
   * CONTINUOUS_HEART_RATE, SleepWise — only what the data endpoints serve for that date, and only
   * subscribed events of an active webhook. Resolves with every delivery once all were answered.
   * Explicit only: `setToday` never sends anything.
   */
  publishDay(date?: string, options?: { users?: Array<string | number> }): Promise<WebhookDelivery[]>
  /** Polar user ids `publishDay` covers: every user whose Bearer token passed authentication (not revoked; registered when `requireRegistration`). */
  knownUsers(): number[]
  /** Polar user ids registered with the client (`POST /v3/users`), minus those de-registered since (`DELETE /v3/users/{id}`). */
  registeredUsers(): number[]
  /** Merges delivery options (`duplicates`, `reorder`, `delayMs`, `badSignature`, `timeoutMs`, `now`); undefined values reset. */
  setWebhookOptions(options: SimWebhookOptions): void
  /** Every webhook POST (PINGs and events), oldest first (a copy). */
  deliveries(): WebhookDelivery[]
  /** Forgets the delivery log. */
  clearDeliveries(): void

  /** Moves the simulated clock forward (rate-limit windows, code expiry, webhook timestamps). */
  advanceClock(ms: number): void
  /** Restarts every rate-limit window with zero usage. */
  resetRateLimits(): void
  /** `RateLimit-*` values of a client (default: the one everything counts against) without counting a request. */
  rateLimitStatus(clientId?: string): SimRateLimitStatus
  /** Stops the server, dropping held (timeout) connections. */
  close(): Promise<void>
}

/** The request log keeps the most recent requests only, so a long demo run stays small. */
const MAX_LOGGED_REQUESTS = 10_000
const BEARER_ONLY_PREFIXES = ['/v3/users', '/v3/exercises']
const BASIC_ONLY_PREFIXES = ['/v3/notifications', '/v3/webhooks']

function parseAuth(header: string | undefined): SimRequest['auth'] {
  if (!header) return { kind: 'none' }
  const [scheme, value = ''] = header.split(/\s+/, 2)
  if (/^bearer$/i.test(scheme) && value) return { kind: 'bearer', token: value }
  if (/^basic$/i.test(scheme) && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    return colon < 0 ? { kind: 'none' } : { kind: 'basic', id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
  }
  return { kind: 'none' }
}


function unauthorized(): SimResponse {
  return polarError(401, 'UNAUTHORIZED', 'Unauthorized')
}

/** Answers one request (faults and rate limits already handled). */
function route(state: SimState, req: SimRequest, endpoint: SimEndpoint): SimResponse | Promise<SimResponse> {
  const path = req.path
  if (endpoint === 'authorize') {
    if (path.replace(/\/+$/, '') === '/oauth2/authorization/decision') return authorizeDecision(state, req)
    return authorizePage(state, req)
  }
  if (endpoint === 'token') return tokenEndpoint(state, req)

  if (BASIC_ONLY_PREFIXES.some((p) => path.startsWith(p))) {
    if (req.auth.kind !== 'basic') return unauthorized()
    if (path.startsWith('/v3/notifications')) return { status: 204 }
    return webhooksRoute(state, req)
  }
  if (!BEARER_ONLY_PREFIXES.some((p) => path.startsWith(p))) return polarError(404, 'NOT_FOUND', `No such resource: ${path}`)

  if (req.auth.kind !== 'bearer') return unauthorized()
  const token = req.auth.token
  if (state.revoked.has(token) || /^(invalid|expired|revoked)/i.test(token)) return unauthorized()
  if (/^noconsent/i.test(token)) return polarError(403, 'FORBIDDEN', 'User has not accepted all mandatory consents')
  state.noteUser(token)
  if (endpoint === 'users') return usersRoute(state, token, req)
  if (state.options.requireRegistration && !state.registered.has(state.polarUserIdOf(token))) {
    return polarError(403, 'FORBIDDEN', 'User has not accepted all mandatory consents')
  }
  return dataRoute(state, state.userFor(token), req)
}

/**
 * Starts a loopback HTTP server that speaks Polar AccessLink v3 (reference §13): wrapped and bare
 * lists, 204/404 conventions, kebab-case keys, mixed time formats, absent keys, `from`/`to`
 * validation, Bearer vs Basic auth, OAuth authorize/token endpoints, user registration, `RateLimit-*`
 * headers on every answer and per-endpoint fault injection. Data is synthetic and deterministic per
 * user and date over a window ending "today".
 */
export async function startPolarSimulator(options: SimOptions = {}): Promise<PolarSimulator> {
  const state = new SimState(options)
  const latency = options.latencyMs ?? 0

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const auth = parseAuth(req.headers.authorization)
    const endpoint = endpointOf(req.method ?? 'GET', url.pathname)
    const log: SimRequestLog = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      endpoint,
      auth: auth.kind,
      status: null,
      at: new Date().toISOString(),
    }
    state.requests.push(log)
    if (state.requests.length > MAX_LOGGED_REQUESTS) state.requests.splice(0, state.requests.length - MAX_LOGGED_REQUESTS)
    let body = ''
    try {
      body = await readBody(req)
    } catch {
      return
    }
    const rate = state.countRequest(state.clientOf(auth))
    const headers: Record<string, string> = {
      'RateLimit-Usage': rate.usage.join(','),
      'RateLimit-Limit': rate.limit.join(','),
      'RateLimit-Reset': rate.reset.join(','),
    }
    if (latency > 0) await new Promise((r) => setTimeout(r, latency))

    const send = (answer: SimResponse, rawOverride?: string) => {
      log.status = answer.status
      const out: Record<string, string> = { ...headers, ...answer.headers }
      let payload = rawOverride ?? answer.raw
      if (payload === undefined && answer.body !== undefined && answer.status !== 204) payload = JSON.stringify(answer.body)
      if (payload !== undefined) out['Content-Type'] = answer.contentType ?? 'application/json;charset=UTF-8'
      res.writeHead(answer.status, out)
      res.end(answer.status === 204 ? undefined : payload)
    }

    const fault = state.takeFault(endpoint)
    if (fault) {
      if (fault.type === 'timeout') return // hold the socket: the client's timeout fires
      if (fault.type === 'rate_limit') {
        const [, long] = rate.limit
        const resetSeconds = fault.resetSeconds ?? 60
        headers['RateLimit-Usage'] = `${rate.limit[0]},${Math.min(rate.usage[1], long)}`
        headers['RateLimit-Reset'] = `${resetSeconds},${rate.reset[1]}`
        return send({ status: 429 })
      }
      if (fault.type === 'malformed') {
        return send({ status: 200 }, '{"nights": [{"date": "2026-0')
      }
      const status = fault.type === 'server_error' ? (fault.status ?? 500) : fault.status
      return send(polarError(status, status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'ERROR', 'Injected fault'))
    }

    const [short, long] = rate.limit
    if (rate.usage[0] > short || rate.usage[1] > long) return send({ status: 429 })

    try {
      send(await route(state, { method: log.method, path: url.pathname, query: url.searchParams, auth, body }, endpoint))
    } catch (error) {
      send(polarError(500, 'INTERNAL_SERVER_ERROR', (error as Error).message))
    }
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}`
  state.baseUrl = url

  return {
    url,
    authUrl: `${url}/oauth2/authorization`,
    tokenUrl: `${url}/v2/oauth2/token`,
    requests: state.requests,
    requestsTo: (endpoint) => state.requests.filter((r) => r.endpoint === endpoint),
    clearRequests: () => {
      state.requests.length = 0
    },
    setFault: (endpoint, fault) => {
      if (fault === null) state.faults.delete(endpoint)
      else state.faults.set(endpoint, toFault(fault))
    },
    clearFaults: () => state.faults.clear(),
    setToday: (date) => {
      state.fixedToday = date
    },
    today: () => state.today(),
    setProfile: (key, overrides) => state.setProfile(key, overrides),
    polarUserIdOf: (token) => state.polarUserIdOf(token),
    webhook: () => (state.webhook ? { ...state.webhook, events: [...state.webhook.events] } : null),
    emitEvent: (key, event, fields) => emitEvent(state, key, event, fields),
    publishDay: (date, opts) => publishDay(state, date, opts),
    knownUsers: () => publishableTokens(state).map((token) => state.polarUserIdOf(token)),
    registeredUsers: () => [...state.registered.keys()],
    setWebhookOptions: (opts) => {
      state.webhookOptions = { ...state.webhookOptions, ...opts }
    },
    deliveries: () => [...state.deliveries],
    clearDeliveries: () => {
      state.deliveries.length = 0
    },
    advanceClock: (ms) => {
      state.clockOffsetMs += ms
    },
    resetRateLimits: () => state.rateBuckets.clear(),
    rateLimitStatus: (clientId) =>
      state.rateStatus(clientId ?? state.clientOf({ kind: 'none' })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Alias of {@link startPolarSimulator}. */
export const start = startPolarSimulator

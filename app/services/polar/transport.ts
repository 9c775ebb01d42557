import { PolarConsentError } from '#services/polar/errors/polar_consent_error'
import { PolarRateLimitError } from '#services/polar/errors/polar_rate_limit_error'
import { PolarUnauthorizedError } from '#services/polar/errors/polar_unauthorized_error'
import { PolarUpstreamError } from '#services/polar/errors/polar_upstream_error'

/**
 * Polar's rate-limit headers as last seen (reference §11). Each list holds one value per window,
 * short (15 min) first, long (24 h) second; `RateLimit-Reset` values are seconds.
 */
export interface RateLimitState {
  usage: number[]
  limit: number[]
  reset: number[]
  /** `Date.now()` when the headers were read. */
  observedAt: number
}

/** One HTTP request as the transport performs it. */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT'
  url: string
  /** Names the call in errors and counters, e.g. `GET /v3/users/sleep`. */
  endpoint: string
  headers: Record<string, string>
  body?: string
  /** Statuses that mean "no data" for this endpoint (204 always does). */
  emptyOn?: number[]
  /** Statuses handed back to the caller instead of throwing (e.g. 409 on registration). */
  passThrough?: number[]
  /** Retry transient failures (5xx, network) of this request; false for non-idempotent calls. */
  retryable?: boolean
  /** Skip the 401/403 mapping (the token endpoint answers those for client credentials). */
  rawAuthErrors?: boolean
}

/** A response the transport did not turn into an error. */
export interface TransportResponse {
  status: number
  /** Parsed JSON body, or null for "no data" (204, an `emptyOn` status, an empty body). */
  data: unknown
}

/** Options shared by the AccessLink and OAuth clients. */
export interface TransportOptions {
  /** Abort a call that has not completed after this many milliseconds (default 30 000). */
  timeoutMs?: number
  /** Extra attempts after a 5xx or network failure (default 1). Timeouts are not retried. */
  retries?: number
  /** Pause before a retry in milliseconds (default 500). */
  retryDelayMs?: number
  /**
   * Called before every HTTP attempt (retries too), before it is counted; may throw to hold the
   * call back (PolarClientFactory wires the shared request budget here).
   */
  beforeRequest?: (endpoint: string) => Promise<void>
  /** Called with the status and `RateLimit-*` headers of every answer that carried them. */
  onRateLimit?: (state: RateLimitState, status: number) => Promise<void>
}

/**
 * fetch-based HTTP layer of the Polar clients: timeouts, one retry for transient failures,
 * `RateLimit-*` bookkeeping, call counting, and the mapping of statuses to typed errors
 * (401 → PolarUnauthorizedError, 403 → PolarConsentError, 429 → PolarRateLimitError,
 * anything else unexpected → PolarUpstreamError). The `beforeRequest` / `onRateLimit` options
 * let the caller admit each attempt and see each answer's headers (the shared request budget).
 */
export class PolarTransport {
  /** HTTP requests sent so far, retries included ("provider calls"). */
  callCount = 0
  /** Requests sent per endpoint name. */
  readonly callsByEndpoint: Record<string, number> = {}
  /** Latest rate-limit headers, or null before the first response that carried them. */
  rateLimit: RateLimitState | null = null

  readonly timeoutMs: number
  readonly retries: number
  readonly retryDelayMs: number
  readonly #beforeRequest: TransportOptions['beforeRequest']
  readonly #onRateLimit: TransportOptions['onRateLimit']

  constructor(options: TransportOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.retries = options.retries ?? 1
    this.retryDelayMs = options.retryDelayMs ?? 500
    this.#beforeRequest = options.beforeRequest
    this.#onRateLimit = options.onRateLimit
  }

  /**
   * Seconds to wait when the last seen headers show an exhausted window that has not reset yet,
   * else null. Lets a sync stop before spending calls that Polar would refuse.
   */
  exhaustedFor(): number | null {
    const state = this.rateLimit
    if (!state) return null
    const elapsed = (Date.now() - state.observedAt) / 1000
    let wait: number | null = null
    for (let i = 0; i < state.limit.length; i++) {
      const usage = state.usage[i]
      const limit = state.limit[i]
      const reset = state.reset[i]
      if (usage === undefined || limit === undefined || limit <= 0 || usage < limit) continue
      const left = (reset ?? 60) - elapsed
      if (left > 0) wait = Math.max(wait ?? 0, Math.ceil(left))
    }
    return wait
  }

  /** Performs one logical call (with retries) and returns its status and parsed body. */
  async send(request: TransportRequest): Promise<TransportResponse> {
    const wait = this.exhaustedFor()
    if (wait !== null) throw new PolarRateLimitError(request.endpoint, wait)

    const attempts = 1 + (request.retryable === false ? 0 : this.retries)
    let lastError: PolarUpstreamError | null = null
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(this.retryDelayMs)
      try {
        return await this.attempt(request)
      } catch (error) {
        if (!(error instanceof PolarUpstreamError) || error.reason === 'timeout') throw error
        const transient = error.reason === 'network' || (error.providerStatus ?? 0) >= 500
        if (!transient) throw error
        lastError = error
      }
    }
    throw lastError!
  }

  private async attempt(request: TransportRequest): Promise<TransportResponse> {
    const { endpoint } = request
    if (this.#beforeRequest) await this.#beforeRequest(endpoint)
    this.callCount++
    this.callsByEndpoint[endpoint] = (this.callsByEndpoint[endpoint] ?? 0) + 1

    let response: Response
    let text: string
    let observed: RateLimitState | null
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      observed = this.readRateLimit(response.headers)
      text = await response.text()
    } catch (error) {
      const name = (error as { name?: string }).name
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new PolarUpstreamError(
          `Polar did not answer ${endpoint} within ${Math.round(this.timeoutMs / 100) / 10} s`,
          endpoint,
          null,
          'timeout',
          { cause: error }
        )
      }
      throw new PolarUpstreamError(
        `Polar could not be reached for ${endpoint}: ${(error as Error).message}`,
        endpoint,
        null,
        'network',
        { cause: error }
      )
    }

    const status = response.status
    if (observed && this.#onRateLimit) await this.#onRateLimit(observed, status)
    if (status === 429) throw new PolarRateLimitError(endpoint, this.retryAfterFromHeaders(response.headers))
    if (!request.rawAuthErrors && status === 401) throw new PolarUnauthorizedError(endpoint)
    if (!request.rawAuthErrors && status === 403) throw new PolarConsentError(endpoint)
    if (status === 204 || (request.emptyOn ?? []).includes(status)) return { status, data: null }

    const ok = status >= 200 && status < 300
    if (!ok && !(request.passThrough ?? []).includes(status)) {
      throw new PolarUpstreamError(
        `Polar answered ${status} on ${endpoint}${describeBody(text)}`,
        endpoint,
        status,
        'status'
      )
    }
    if (text.trim() === '') return { status, data: null }
    try {
      return { status, data: JSON.parse(text) }
    } catch (error) {
      throw new PolarUpstreamError(
        `Polar sent a body that is not valid JSON on ${endpoint} (status ${status})`,
        endpoint,
        status,
        'malformed',
        { cause: error }
      )
    }
  }

  /** Keeps the answer's `RateLimit-*` headers as `rateLimit` and returns them (null: none sent). */
  private readRateLimit(headers: Headers): RateLimitState | null {
    const usage = parseList(headers.get('ratelimit-usage'))
    const limit = parseList(headers.get('ratelimit-limit'))
    const reset = parseList(headers.get('ratelimit-reset'))
    if (usage.length === 0 && limit.length === 0 && reset.length === 0) return null
    this.rateLimit = { usage, limit, reset, observedAt: Date.now() }
    return this.rateLimit
  }

  /**
   * Seconds until the exhausted window resets: the longest reset among windows whose usage reached
   * the limit, else the shortest reset sent, else `Retry-After`, else 60.
   */
  private retryAfterFromHeaders(headers: Headers): number {
    const usage = parseList(headers.get('ratelimit-usage'))
    const limit = parseList(headers.get('ratelimit-limit'))
    const reset = parseList(headers.get('ratelimit-reset'))
    const exhausted = reset.filter((_, i) => usage[i] !== undefined && limit[i] !== undefined && usage[i] >= limit[i])
    const retryAfter = Number(headers.get('retry-after'))
    const seconds =
      exhausted.length > 0
        ? Math.max(...exhausted)
        : reset.length > 0
          ? Math.min(...reset)
          : Number.isFinite(retryAfter) && retryAfter > 0
            ? retryAfter
            : 60
    return Math.max(1, Math.ceil(seconds))
  }
}

function parseList(value: string | null): number[] {
  if (!value) return []
  return value
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isFinite(n))
}

/** A short, secret-free hint from Polar's error body (`message` field or the first characters). */
function describeBody(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return ''
  try {
    const body = JSON.parse(trimmed) as { message?: unknown; error?: unknown }
    const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : null
    if (message) return `: ${message.slice(0, 200)}`
  } catch {
    // not JSON: fall through to a plain-text excerpt
  }
  if (trimmed.startsWith('<')) return ''
  return `: ${trimmed.slice(0, 200)}`
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

import { DATA_TYPE_KEYS, type DataTypeKey } from '#services/records/data_types'
import { buildProfile, overridesFromToken, polarUserIdFor, type SimProfile } from '#simulators/polar/profile'
import { addDaysTo } from '#simulators/polar/sim_time'
import { SimUser } from '#simulators/polar/user_model'
import type { SimWebhook, SimWebhookOptions, WebhookDelivery } from '#simulators/polar/webhooks'

/** Endpoints that are not a data type of the catalogue (fault injection and the request log). */
const OTHER_ENDPOINTS = [
  'exercise_detail',
  'users',
  'notifications',
  'webhooks',
  'authorize',
  'token',
  'other',
] as const

/** Endpoint names used by fault injection and the request log: every data type's key, then the rest. */
export const SIM_ENDPOINTS = [...DATA_TYPE_KEYS, ...OTHER_ENDPOINTS] as const

export type SimEndpoint = DataTypeKey | (typeof OTHER_ENDPOINTS)[number]

/**
 * A failure injected into one endpoint (or `'*'` = every `/v3` endpoint):
 * `server_error` answers 5xx (default 500), `rate_limit` answers 429 with `RateLimit-Reset`,
 * `timeout` never answers (the client's timeout fires), `malformed` sends truncated JSON,
 * `status` answers any status with Polar's error body. `times` limits it to the next N requests.
 */
export type SimFault =
  | { type: 'server_error'; status?: number; times?: number }
  | { type: 'rate_limit'; resetSeconds?: number; times?: number }
  | { type: 'timeout'; times?: number }
  | { type: 'malformed'; times?: number }
  | { type: 'status'; status: number; times?: number }

/** Shorthands accepted by `setFault`. */
export type SimFaultInput = SimFault | '5xx' | '429' | 'timeout' | 'malformed'

/** One request as the simulator saw it. */
export interface SimRequestLog {
  method: string
  path: string
  query: Record<string, string>
  endpoint: SimEndpoint
  auth: 'bearer' | 'basic' | 'none'
  /** Status sent, or null when a timeout fault held the request. */
  status: number | null
  at: string
}

/** Options of the simulator; all optional. */
export interface SimOptions {
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Fixed "today" `YYYY-MM-DD`; default the current UTC date at each request. */
  today?: string
  /** Days of history served, ending today (default 28; exercises at least 30). */
  window?: number
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number
  /** Overrides applied to every user's profile (e.g. `{ missingRate: 0 }`). */
  defaults?: Partial<SimProfile>
  /** Overrides per token or per Polar user id. */
  profiles?: Record<string, Partial<SimProfile>>
  /** Accepted client credentials of the token endpoint; any non-empty pair when absent. */
  clients?: Record<string, string>
  /** Data calls of unregistered users answer 403 (as Polar does) when true; default false. */
  requireRegistration?: boolean
  /** Shape of the continuous-HR range answer: `wrapper` (`{heart_rates}`, default) or `array`. */
  heartRateShape?: 'wrapper' | 'array'
  /**
   * Base rate limits per client before the per-user increments (default 500 / 5000), and the
   * window lengths (default 900 s and 86 400 s). Counted per client when `clients` is set
   * (see {@link SimState.clientOf}), else one budget for everything.
   */
  rateLimit?: { short?: number; long?: number; shortWindowSeconds?: number; longWindowSeconds?: number }
  /** Where the authorize page sends the browser when the request had no `redirect_uri`. */
  defaultRedirectUri?: string
  /** How webhook events are delivered (duplicates, reorder, delay, bad signature, timeout, clock). */
  webhooks?: SimWebhookOptions
}

/** `RateLimit-*` values of one client: [short, long] pairs. */
export interface SimRateLimitStatus {
  usage: [number, number]
  limit: [number, number]
  reset: [number, number]
}

interface RateBucket {
  short: number
  long: number
  shortStart: number
  longStart: number
}

interface IssuedCode {
  clientId: string
  redirectUri: string | null
  polarUserId: number
  expiresAt: number
  used: boolean
}

/** In-memory state of one simulator instance. */
export class SimState {
  fixedToday: string | null
  window: number
  readonly options: SimOptions
  readonly tokens = new Map<string, number>()
  readonly revoked = new Set<string>()
  readonly registered = new Map<number, { memberId: string; registeredAt: string; clientId?: string }>()
  readonly memberIds = new Map<string, number>()
  readonly codes = new Map<string, IssuedCode>()
  readonly faults = new Map<string, SimFault>()
  readonly requests: SimRequestLog[] = []
  readonly profiles = new Map<string, Partial<SimProfile>>()
  readonly #users = new Map<string, SimUser>()
  readonly startedAt = Date.now()
  authorizeSequence = 0
  /** Client id that each token of the token endpoint was issued to. */
  readonly tokenClients = new Map<string, string>()
  /** Rate-limit windows per client key (`''` when `clients` is not configured). */
  readonly rateBuckets = new Map<string, RateBucket>()
  /** Shift of the simulated clock against the wall clock (`advanceClock`), in ms. */
  clockOffsetMs = 0
  /** Base URL of the running server (webhook payload URLs). */
  baseUrl = ''
  /** The client's webhook (one per simulator), or null. */
  webhook: SimWebhook | null = null
  /** Webhook delivery behaviour. */
  webhookOptions: SimWebhookOptions
  /** Webhook deliveries (PINGs and events), oldest first. */
  readonly deliveries: WebhookDelivery[] = []
  /** Counter seeding the `reorder` shuffles. */
  deliveryBatches = 0
  /** Polar user id → the latest Bearer token that passed authentication for it (`publishDay`'s users). */
  readonly knownUsers = new Map<number, string>()

  constructor(options: SimOptions) {
    this.options = options
    this.fixedToday = options.today ?? null
    this.window = Math.max(1, options.window ?? 28)
    for (const [key, value] of Object.entries(options.profiles ?? {})) this.profiles.set(key, value)
    this.webhookOptions = { ...options.webhooks }
  }

  /** The simulated clock in epoch ms: the wall clock plus `advanceClock` shifts. */
  now(): number {
    return Date.now() + this.clockOffsetMs
  }

  /** Remembers the user behind a Bearer token that passed authentication (for `publishDay`). */
  noteUser(token: string) {
    this.knownUsers.set(this.polarUserIdOf(token), token)
  }

  /** The simulator's "today". */
  today(): string {
    return this.fixedToday ?? new Date().toISOString().slice(0, 10)
  }

  /** First date of the served history window. */
  windowStart(days = this.window): string {
    return addDaysTo(this.today(), -(days - 1))
  }

  /** Polar user id behind a Bearer token (issued, `sim_<id>_…` or any other string). */
  polarUserIdOf(token: string): number {
    const issued = this.tokens.get(token)
    if (issued !== undefined) return issued
    const match = /^sim_(\d+)_/.exec(token)
    return match ? Number(match[1]) : polarUserIdFor(token)
  }

  /** The data model behind a token, with profile overrides (defaults, token hints, per token/id). */
  userFor(token: string): SimUser {
    const cached = this.#users.get(token)
    if (cached) return cached
    const id = this.polarUserIdOf(token)
    const overrides = {
      ...this.options.defaults,
      ...overridesFromToken(token),
      ...this.profiles.get(String(id)),
      ...this.profiles.get(token),
    }
    const user = new SimUser(`u${id}`, buildProfile(id, overrides))
    this.#users.set(token, user)
    return user
  }

  /** Changes a profile; cached users are rebuilt on their next request. */
  setProfile(tokenOrUserId: string, overrides: Partial<SimProfile>) {
    this.profiles.set(tokenOrUserId, { ...this.profiles.get(tokenOrUserId), ...overrides })
    this.#users.clear()
  }

  /**
   * The client a request counts against. Without `options.clients` every request shares one budget
   * (`''`). With it: the Basic client id; for a Bearer token, the client the token endpoint issued it
   * to; otherwise (other tokens, no auth) the first configured client.
   */
  clientOf(auth: { kind: 'bearer'; token: string } | { kind: 'basic'; id: string } | { kind: 'none' }): string {
    const clients = this.options.clients
    if (!clients) return ''
    const fallback = Object.keys(clients)[0] ?? ''
    if (auth.kind === 'basic') return auth.id
    if (auth.kind === 'bearer') return this.tokenClients.get(auth.token) ?? fallback
    return fallback
  }

  /** Current rate limits of a client: base plus 20 / 100 per user registered with it (reference §11). */
  limits(client = ''): [number, number] {
    let n = this.registered.size
    if (this.options.clients) {
      n = 0
      for (const reg of this.registered.values()) if ((reg.clientId ?? '') === client) n++
    }
    return [(this.options.rateLimit?.short ?? 500) + n * 20, (this.options.rateLimit?.long ?? 5000) + n * 100]
  }

  /** Window lengths in ms: [short, long]. */
  windowsMs(): [number, number] {
    return [
      (this.options.rateLimit?.shortWindowSeconds ?? 900) * 1000,
      (this.options.rateLimit?.longWindowSeconds ?? 86_400) * 1000,
    ]
  }

  /** The client's windows, restarted when the simulated clock has passed their end. */
  #bucket(client: string): RateBucket {
    const now = this.now()
    const [shortMs, longMs] = this.windowsMs()
    let bucket = this.rateBuckets.get(client)
    if (!bucket) {
      bucket = { short: 0, long: 0, shortStart: now, longStart: now }
      this.rateBuckets.set(client, bucket)
    }
    if (now - bucket.shortStart >= shortMs) {
      bucket.shortStart = now
      bucket.short = 0
    }
    if (now - bucket.longStart >= longMs) {
      bucket.longStart = now
      bucket.long = 0
    }
    return bucket
  }

  /** `RateLimit-*` values of a client without counting a request. */
  rateStatus(client = ''): SimRateLimitStatus {
    const bucket = this.#bucket(client)
    const now = this.now()
    const [shortMs, longMs] = this.windowsMs()
    return {
      usage: [bucket.short, bucket.long],
      limit: this.limits(client),
      reset: [
        Math.max(1, Math.ceil((bucket.shortStart + shortMs - now) / 1000)),
        Math.max(1, Math.ceil((bucket.longStart + longMs - now) / 1000)),
      ],
    }
  }

  /** Counts one request of a client and returns the `RateLimit-*` header values. */
  countRequest(client = ''): SimRateLimitStatus {
    const bucket = this.#bucket(client)
    bucket.short++
    bucket.long++
    return this.rateStatus(client)
  }

  /** The fault for an endpoint (its own, else `'*'` for `/v3` endpoints), consuming one use. */
  takeFault(endpoint: SimEndpoint): SimFault | null {
    const key = this.faults.has(endpoint)
      ? endpoint
      : this.faults.has('*') && !['authorize', 'token'].includes(endpoint)
        ? '*'
        : null
    if (key === null) return null
    const fault = this.faults.get(key)!
    if (fault.times !== undefined) {
      if (fault.times <= 1) this.faults.delete(key)
      else this.faults.set(key, { ...fault, times: fault.times - 1 })
    }
    return fault
  }
}

/** Normalises a fault shorthand. */
export function toFault(input: SimFaultInput): SimFault {
  if (input === '5xx') return { type: 'server_error', status: 500 }
  if (input === '429') return { type: 'rate_limit', resetSeconds: 60 }
  if (input === 'timeout') return { type: 'timeout' }
  if (input === 'malformed') return { type: 'malformed' }
  return input
}

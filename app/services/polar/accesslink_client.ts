import env from '#start/env'
import { PolarUpstreamError } from '#services/polar/errors/polar_upstream_error'
import { dateChunks, daysBetween, isIsoDate } from '#services/polar/local_times'
import { collectPolarUserIds } from '#services/polar/polar_account'
import { PolarTransport, type RateLimitState, type TransportOptions } from '#services/polar/transport'
import type {
  WireActivityDaySamples,
  WireBodyTemperature,
  WireCardioLoad,
  WireContinuousHeartRateDay,
  WireDailyActivity,
  WireEcg,
  WireExercise,
  WireNightlyRecharge,
  WirePhysicalInfo,
  WireSkinTemperature,
  WireSleep,
  WireSleepwiseAlertness,
  WireSleepwiseBedtime,
  WireSpo2,
  WireUser,
} from '#services/polar/wire_types'

/** Polar's production API host; used when neither the option nor POLAR_API_BASE_URL is set. */
export const DEFAULT_POLAR_API_BASE_URL = 'https://www.polaraccesslink.com'

/** Longest `from`…`to` span (inclusive days) AccessLink accepts in one range call. */
export const MAX_RANGE_DAYS = 28

/** Inclusive calendar range `YYYY-MM-DD` … `YYYY-MM-DD`. */
export interface DateRange {
  from: string
  to: string
}

/** Options of {@link AccessLinkClient}; every value has a default from the environment. */
export interface AccessLinkClientOptions extends TransportOptions {
  /** The user's AccessLink access token (Bearer). Required for user-data calls. */
  accessToken?: string
  /** API host, default POLAR_API_BASE_URL or https://www.polaraccesslink.com. */
  baseUrl?: string
}

/** Answer of {@link AccessLinkClient.registerUser}. */
export interface RegistrationResult {
  /** false when Polar answered 409 (already registered to this client, which is fine). */
  created: boolean
  /** The user object on 2xx, null on 409. */
  user: WireUser | null
}

/**
 * Polar AccessLink v3 client for one user's token (reference/polar-accesslink.md). Create one
 * instance per user-sync: `callCount` then gives "provider calls per user-sync" and `rateLimit`
 * the latest `RateLimit-*` headers. List methods return Polar's wire objects unchanged; the
 * mappers in `#services/polar/mappers/*` turn them into rows. "No data" (204, and 404 where
 * Polar documents it) is an empty list or null, never an error. Failures throw
 * PolarUnauthorizedError (401), PolarConsentError (403), PolarRateLimitError (429 or an
 * exhausted window) or PolarUpstreamError (5xx, timeout, unreachable, malformed JSON).
 */
export class AccessLinkClient {
  readonly baseUrl: string
  readonly transport: PolarTransport
  readonly #accessToken: string | undefined
  readonly #accountIds = new Set<string>()

  constructor(options: AccessLinkClientOptions = {}) {
    this.baseUrl = trimSlash(options.baseUrl ?? env.get('POLAR_API_BASE_URL') ?? DEFAULT_POLAR_API_BASE_URL)
    this.transport = new PolarTransport(options)
    this.#accessToken = options.accessToken
  }

  /** HTTP requests sent by this client so far (retries included). */
  get callCount(): number {
    return this.transport.callCount
  }

  /** Requests sent per endpoint name, e.g. `{"GET /v3/users/sleep": 1}`. */
  get callsByEndpoint(): Record<string, number> {
    return this.transport.callsByEndpoint
  }

  /** Polar's `RateLimit-Usage/Limit/Reset` from the latest response, null before any. */
  get rateLimit(): RateLimitState | null {
    return this.transport.rateLimit
  }

  /**
   * Polar user ids that the answers so far name as their owner (`polar_user` URLs): one id for a
   * normal token, none while no sleep, recharge, exercise or heart-rate data has come back.
   */
  get accountIds(): ReadonlySet<string> {
    return this.#accountIds
  }

  // ---------------------------------------------------------------- users

  /**
   * Registers the token's user with this client (`POST /v3/users`, body `{"member-id"}`), needed once
   * before any data call. A 409 (already registered, or member id taken) counts as success.
   */
  async registerUser(memberId: string): Promise<RegistrationResult> {
    const { status, data } = await this.call('POST', '/v3/users', 'POST /v3/users', {
      body: { 'member-id': memberId },
      passThrough: [409],
      retryable: false,
    })
    if (status === 409) return { created: false, user: null }
    return { created: true, user: isObject(data) ? (data as WireUser) : null }
  }

  /**
   * De-registers the user (`DELETE /v3/users/{id}`), which also revokes the token. Returns false when
   * Polar no longer knows the user (404), true otherwise.
   */
  async deregisterUser(polarUserId: number | string): Promise<boolean> {
    const { status } = await this.call('DELETE', `/v3/users/${encodeURIComponent(String(polarUserId))}`, 'DELETE /v3/users/{id}', {
      emptyOn: [404],
      retryable: false,
    })
    return status !== 404
  }

  /** The registered user's profile (`GET /v3/users/{id}`), null when not found. */
  async getUser(polarUserId: number | string): Promise<WireUser | null> {
    const { data } = await this.call('GET', `/v3/users/${encodeURIComponent(String(polarUserId))}`, 'GET /v3/users/{id}', {
      emptyOn: [404],
    })
    return isObject(data) ? (data as WireUser) : null
  }

  /**
   * The user's physical information (`GET /v3/users/physical-info`, non-transactional): weight,
   * height, heart-rate settings, VO2max, sleep goal, stamped `created` / `modified`. Null when Polar
   * has none (204/404).
   */
  async getPhysicalInfo(): Promise<WirePhysicalInfo | null> {
    const { data } = await this.call('GET', '/v3/users/physical-info', 'GET /v3/users/physical-info', { emptyOn: [404] })
    return isObject(data) ? (data as WirePhysicalInfo) : null
  }

  // ---------------------------------------------------------------- sleep and recharge

  /**
   * Sleep nights of Polar's window (`GET /v3/users/sleep` → `{nights}`, ~28 days; the endpoint has
   * no range parameters). With `range`, nights outside it are dropped.
   */
  async listSleep(range?: DateRange): Promise<WireSleep[]> {
    const { data } = await this.call('GET', '/v3/users/sleep', 'GET /v3/users/sleep', { emptyOn: [404] })
    return filterByDate(unwrap<WireSleep>(data, 'nights', 'GET /v3/users/sleep'), (n) => n.date, range)
  }

  /** One night by wake-up date (`GET /v3/users/sleep/{date}`), null when Polar has none (404). */
  async getSleep(date: string): Promise<WireSleep | null> {
    const { data } = await this.call('GET', `/v3/users/sleep/${checkDate(date)}`, 'GET /v3/users/sleep/{date}', {
      emptyOn: [404],
    })
    return isObject(data) ? (data as WireSleep) : null
  }

  /** Nightly Recharge of Polar's window (`{recharges}`, ~28 days), optionally limited to `range`. */
  async listNightlyRecharge(range?: DateRange): Promise<WireNightlyRecharge[]> {
    const endpoint = 'GET /v3/users/nightly-recharge'
    const { data } = await this.call('GET', '/v3/users/nightly-recharge', endpoint, { emptyOn: [404] })
    return filterByDate(unwrap<WireNightlyRecharge>(data, 'recharges', endpoint), (r) => r.date, range)
  }

  /** One Nightly Recharge by date, null when Polar has none (404). */
  async getNightlyRecharge(date: string): Promise<WireNightlyRecharge | null> {
    const { data } = await this.call('GET', `/v3/users/nightly-recharge/${checkDate(date)}`, 'GET /v3/users/nightly-recharge/{date}', {
      emptyOn: [404],
    })
    return isObject(data) ? (data as WireNightlyRecharge) : null
  }

  // ---------------------------------------------------------------- activity and training

  /**
   * Daily activity summaries over `range` from the non-transactional API
   * (`GET /v3/users/activities?from&to`, bare array), one call per ≤ 28-day chunk. With
   * `samples: true` each summary also carries step, zone and inactivity samples.
   */
  async listDailyActivities(range: DateRange, options: { samples?: boolean } = {}): Promise<WireDailyActivity[]> {
    const flags: Record<string, string> = options.samples
      ? { steps: 'true', activity_zones: 'true', inactivity_stamps: 'true' }
      : {}
    return this.ranged<WireDailyActivity>('/v3/users/activities', 'GET /v3/users/activities', range, flags)
  }

  /**
   * Day-sample objects (steps, activity zones, inactivity stamps) over `range`
   * (`GET /v3/users/activities/samples?from&to`, bare array), one call per ≤ 28-day chunk. The same
   * objects come inside {@link listDailyActivities} with `samples: true`, which the sync uses.
   */
  async listActivitySamples(range: DateRange): Promise<WireActivityDaySamples[]> {
    return this.ranged<WireActivityDaySamples>('/v3/users/activities/samples', 'GET /v3/users/activities/samples', range)
  }

  /** One day's samples (`GET /v3/users/activities/samples/{date}`), null when Polar has none (204). */
  async getActivitySamples(date: string): Promise<WireActivityDaySamples | null> {
    const endpoint = 'GET /v3/users/activities/samples/{date}'
    const { data } = await this.call('GET', `/v3/users/activities/samples/${checkDate(date)}`, endpoint, { emptyOn: [404] })
    return isObject(data) ? (data as WireActivityDaySamples) : null
  }

  /**
   * Exercises of Polar's window (`GET /v3/exercises`, bare array, ~30 days, summaries only).
   * The caller decides which ids are new and fetches only those with {@link getExercise}.
   */
  async listExercises(): Promise<WireExercise[]> {
    const { data } = await this.call('GET', '/v3/exercises', 'GET /v3/exercises')
    return asArray<WireExercise>(data, 'GET /v3/exercises')
  }

  /**
   * One exercise by Polar's hashed id with heart-rate zones (`zones=true` by default); `samples`
   * and `route` add the sample streams and GPS route. Null when Polar no longer has it (404).
   */
  async getExercise(
    id: string,
    options: { zones?: boolean; samples?: boolean; route?: boolean } = {}
  ): Promise<WireExercise | null> {
    const query = new URLSearchParams({
      zones: String(options.zones ?? true),
      samples: String(options.samples ?? false),
      route: String(options.route ?? false),
    })
    const { data } = await this.call('GET', `/v3/exercises/${encodeURIComponent(id)}?${query}`, 'GET /v3/exercises/{id}', {
      emptyOn: [404],
    })
    return isObject(data) ? (data as WireExercise) : null
  }

  /**
   * Cardio load per day over `range` (`GET /v3/users/cardio-load/date?from&to`, one element per day,
   * days without a value carry `-1.0` and LOAD_STATUS_NOT_AVAILABLE).
   */
  async listCardioLoad(range: DateRange): Promise<WireCardioLoad[]> {
    return this.ranged<WireCardioLoad>('/v3/users/cardio-load/date', 'GET /v3/users/cardio-load/date', range)
  }

  // ---------------------------------------------------------------- SleepWise

  /** SleepWise alertness periods over `range` (`/v3/users/sleepwise/alertness/date`, 204 = none). */
  async listSleepwiseAlertness(range: DateRange): Promise<WireSleepwiseAlertness[]> {
    return this.ranged('/v3/users/sleepwise/alertness/date', 'GET /v3/users/sleepwise/alertness/date', range)
  }

  /** SleepWise circadian bedtime periods over `range` (`/v3/users/sleepwise/circadian-bedtime/date`). */
  async listSleepwiseBedtime(range: DateRange): Promise<WireSleepwiseBedtime[]> {
    return this.ranged(
      '/v3/users/sleepwise/circadian-bedtime/date',
      'GET /v3/users/sleepwise/circadian-bedtime/date',
      range
    )
  }

  // ---------------------------------------------------------------- biosensing

  /** SpO2 tests over `range` (`/v3/users/biosensing/spo2`; devices without the sensor answer 204). */
  async listSpo2(range: DateRange): Promise<WireSpo2[]> {
    return this.ranged('/v3/users/biosensing/spo2', 'GET /v3/users/biosensing/spo2', range, {}, [404])
  }

  /** ECG tests over `range` (`/v3/users/biosensing/ecg`). */
  async listEcg(range: DateRange): Promise<WireEcg[]> {
    return this.ranged('/v3/users/biosensing/ecg', 'GET /v3/users/biosensing/ecg', range, {}, [404])
  }

  /** Body-temperature periods over `range` (`/v3/users/biosensing/bodytemperature`). */
  async listBodyTemperature(range: DateRange): Promise<WireBodyTemperature[]> {
    return this.ranged('/v3/users/biosensing/bodytemperature', 'GET /v3/users/biosensing/bodytemperature', range, {}, [404])
  }

  /** Nightly skin temperature over `range` (`/v3/users/biosensing/skintemperature`). */
  async listSkinTemperature(range: DateRange): Promise<WireSkinTemperature[]> {
    return this.ranged('/v3/users/biosensing/skintemperature', 'GET /v3/users/biosensing/skintemperature', range, {}, [404])
  }

  // ---------------------------------------------------------------- continuous heart rate

  /**
   * Continuous heart rate per day over `range` with the range call
   * (`GET /v3/users/continuous-heart-rate?from&to`, ≤ 28 days per call). Accepts a bare day object,
   * a `{heart_rates: [...]}` wrapper or a bare array; 204/404 mean no data.
   */
  async listContinuousHeartRate(range: DateRange): Promise<WireContinuousHeartRateDay[]> {
    const endpoint = 'GET /v3/users/continuous-heart-rate'
    const days: WireContinuousHeartRateDay[] = []
    for (const chunk of chunksOf(range)) {
      const query = new URLSearchParams({ from: chunk.from, to: chunk.to })
      const { data } = await this.call('GET', `/v3/users/continuous-heart-rate?${query}`, endpoint, { emptyOn: [404] })
      if (data === null) continue
      days.push(...normaliseHeartRateDays(data, endpoint))
    }
    return filterByDate(days, (d) => d.date, range)
  }

  /**
   * One day of continuous heart rate (`GET /v3/users/continuous-heart-rate/{date}`, the bare
   * `{polar_user, date, heart_rate_samples}` object), null when Polar has none (404/204).
   */
  async getContinuousHeartRate(date: string): Promise<WireContinuousHeartRateDay | null> {
    const endpoint = 'GET /v3/users/continuous-heart-rate/{date}'
    const { data } = await this.call('GET', `/v3/users/continuous-heart-rate/${checkDate(date)}`, endpoint, { emptyOn: [404] })
    if (data === null) return null
    return normaliseHeartRateDays(data, endpoint).find((day) => day.date === date) ?? null
  }

  // ---------------------------------------------------------------- plumbing

  private async ranged<T>(
    path: string,
    endpoint: string,
    range: DateRange,
    extra: Record<string, string> = {},
    emptyOn: number[] = []
  ): Promise<T[]> {
    const out: T[] = []
    for (const chunk of chunksOf(range)) {
      const query = new URLSearchParams({ from: chunk.from, to: chunk.to, ...extra })
      const { data } = await this.call('GET', `${path}?${query}`, endpoint, { emptyOn })
      out.push(...asArray<T>(data, endpoint))
    }
    return out
  }

  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    pathAndQuery: string,
    endpoint: string,
    options: { body?: unknown; emptyOn?: number[]; passThrough?: number[]; retryable?: boolean } = {}
  ) {
    if (!this.#accessToken) throw new TypeError('AccessLinkClient needs an accessToken for user-data calls')
    const headers: Record<string, string> = {
      'Accept': 'application/json',
      'Authorization': `Bearer ${this.#accessToken}`,
    }
    if (options.body !== undefined) headers['Content-Type'] = 'application/json'
    const answer = await this.transport.send({
      method,
      url: `${this.baseUrl}${pathAndQuery}`,
      endpoint,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      emptyOn: options.emptyOn,
      passThrough: options.passThrough,
      retryable: options.retryable ?? method === 'GET',
    })
    collectPolarUserIds(answer.data, this.#accountIds)
    return answer
  }
}

/** Splits a validated range into AccessLink-sized chunks. */
function chunksOf(range: DateRange) {
  checkDate(range.from)
  checkDate(range.to)
  if (daysBetween(range.from, range.to) < 0) throw new RangeError(`Invalid range ${range.from}…${range.to}`)
  return dateChunks(range.from, range.to, MAX_RANGE_DAYS)
}

function checkDate(date: string): string {
  if (!isIsoDate(date)) throw new RangeError(`Invalid date ${JSON.stringify(date)} (expected YYYY-MM-DD)`)
  return date
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function asArray<T>(data: unknown, endpoint: string): T[] {
  if (data === null) return []
  if (!Array.isArray(data)) throw shapeError(endpoint, 'a JSON array')
  return data.filter(isObject) as T[]
}

function unwrap<T>(data: unknown, key: string, endpoint: string): T[] {
  if (data === null) return []
  if (!isObject(data)) throw shapeError(endpoint, `an object with "${key}"`)
  const list = data[key]
  if (list === undefined || list === null) return []
  if (!Array.isArray(list)) throw shapeError(endpoint, `"${key}" as an array`)
  return list.filter(isObject) as T[]
}

/** Continuous-HR range answers come as one day object, `{heart_rates: [...]}` or a bare array. */
export function normaliseHeartRateDays(data: unknown, endpoint = 'GET /v3/users/continuous-heart-rate'): WireContinuousHeartRateDay[] {
  if (data === null || data === undefined) return []
  if (Array.isArray(data)) return data.filter(isObject) as WireContinuousHeartRateDay[]
  if (!isObject(data)) throw shapeError(endpoint, 'a day object, {heart_rates} or an array')
  if (Array.isArray(data.heart_rates)) return data.heart_rates.filter(isObject) as WireContinuousHeartRateDay[]
  if ('heart_rate_samples' in data || 'date' in data) return [data as WireContinuousHeartRateDay]
  throw shapeError(endpoint, 'a day object, {heart_rates} or an array')
}

function filterByDate<T>(items: T[], dateOf: (item: T) => string | undefined, range?: DateRange): T[] {
  if (!range) return items
  return items.filter((item) => {
    const date = dateOf(item)
    return typeof date === 'string' && date.slice(0, 10) >= range.from && date.slice(0, 10) <= range.to
  })
}

function shapeError(endpoint: string, expected: string) {
  return new PolarUpstreamError(`Polar sent an unexpected body on ${endpoint} (expected ${expected})`, endpoint, 200, 'malformed')
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

import { randomUUID } from 'node:crypto'
import { DATA_TYPES } from '#services/records/data_types'
import type { SimEndpoint, SimState } from '#simulators/polar/state'
import { addDaysTo, dayNumber } from '#simulators/polar/sim_time'
import type { SimUser } from '#simulators/polar/user_model'
import {
  activityFor,
  alertnessFor,
  bedtimeFor,
  heartRateFor,
  rechargeFor,
  sleepFor,
} from '#simulators/polar/wire_days'
import { cardioFor, exerciseWire, sessionsBetween } from '#simulators/polar/wire_training'
import {
  bodyTemperatureFor,
  ecgFor,
  skinTemperatureFor,
  spo2For,
} from '#simulators/polar/wire_biosensing'
import { physicalInfoFor } from '#simulators/polar/wire_profile'

/** An answer of the simulator: JSON `body`, or `raw` text, or nothing (204). */
export interface SimResponse {
  status: number
  body?: unknown
  raw?: string
  contentType?: string
  headers?: Record<string, string>
}

/** A parsed request handed to the route handlers. */
export interface SimRequest {
  method: string
  path: string
  query: URLSearchParams
  auth: { kind: 'bearer'; token: string } | { kind: 'basic'; id: string; secret: string } | { kind: 'none' }
  body: string
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/

/** Polar's error body (reference §0). */
export function polarError(status: number, errorType: string, message: string): SimResponse {
  return {
    status,
    body: { timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), status, errorType, message, corrId: randomUUID() },
  }
}

/** Data types by AccessLink path, longest first (so `/v3/users/sleepwise/…` is never read as `/v3/users/sleep`). */
const DATA_TYPES_BY_PATH = [...DATA_TYPES].sort((a, b) => b.accessLinkPath.length - a.accessLinkPath.length)

/** Which fault/log endpoint a path belongs to. */
export function endpointOf(method: string, path: string): SimEndpoint {
  const p = path.replace(/\/+$/, '')
  if (p.startsWith('/oauth2/authorization')) return 'authorize'
  if (p === '/v2/oauth2/token' || p === '/oauth2/token') return 'token'
  if (p.startsWith('/v3/exercises/')) return 'exercise_detail'
  if (p.startsWith('/v3/notifications')) return 'notifications'
  if (p.startsWith('/v3/webhooks')) return 'webhooks'
  if (p === '/v3/users/physical-info') return 'physical_info'
  for (const type of DATA_TYPES_BY_PATH) {
    if (p === type.accessLinkPath || p.startsWith(`${type.accessLinkPath}/`)) return type.key
  }
  if (p === '/v3/users' || /^\/v3\/users\/\d+$/.test(p)) return 'users'
  void method
  return 'other'
}

const validDate = (value: string | null): value is string =>
  value !== null && DATE_RE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)

type Range = { from: string; to: string } | SimResponse

/**
 * Reads `from`/`to`: 400 when malformed, reversed, longer than 28 days, or (activities) `from` older
 * than 365 days; without them, the last 28 days unless `required`.
 */
function readRange(state: SimState, query: URLSearchParams, required: boolean, maxAgeCheck = false): Range {
  const from = query.get('from')
  const to = query.get('to')
  const today = state.today()
  if (from === null && to === null) {
    if (required) return polarError(400, 'BAD_REQUEST', 'Parameters from and to are required')
    return { from: addDaysTo(today, -27), to: today }
  }
  const start = from ?? addDaysTo(to ?? today, -27)
  const end = to ?? today
  if (!validDate(start) || !validDate(end)) return polarError(400, 'BAD_REQUEST', 'Invalid or too old date')
  const span = dayNumber(end) - dayNumber(start)
  if (span < 0 || span > 28) return polarError(400, 'BAD_REQUEST', 'Invalid date range: at most 28 days')
  if (maxAgeCheck && dayNumber(today) - dayNumber(start) > 365) return polarError(400, 'BAD_REQUEST', 'Invalid or too old date')
  return { from: start, to: end }
}

/** Dates of `from`…`to` clipped to the served window, oldest first. */
function datesIn(state: SimState, from: string, to: string, windowDays = state.window): string[] {
  const first = state.windowStart(windowDays)
  const start = from > first ? from : first
  const end = to < state.today() ? to : state.today()
  const out: string[] = []
  for (let d = start; d <= end; d = addDaysTo(d, 1)) out.push(d)
  return out
}

const isResponse = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value && !('from' in value)

const listOrNoContent = (items: unknown[]): SimResponse => (items.length > 0 ? { status: 200, body: items } : { status: 204 })

const flag = (query: URLSearchParams, name: string) => query.get(name) === 'true'

/** Routes of the user-data endpoints (Bearer, already authenticated) for one user. */
export function dataRoute(state: SimState, user: SimUser, req: SimRequest): SimResponse {
  const path = req.path.replace(/\/+$/, '')
  const q = req.query
  const today = state.today()
  let m: RegExpExecArray | null

  if (req.method !== 'GET') return polarError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed')

  // Sleep and Nightly Recharge: wrapped lists, per-date 404.
  if (path === '/v3/users/sleep') {
    return { status: 200, body: { nights: collect(datesIn(state, '0000-01-01', today), (d) => sleepFor(user, d)) } }
  }
  if (path === '/v3/users/sleep/available') {
    const nights = collect(datesIn(state, '0000-01-01', today), (d) => sleepFor(user, d))
    return { status: 200, body: { available: nights.map((n) => ({ date: n.date, start_time: n.sleep_start_time, end_time: n.sleep_end_time })) } }
  }
  if ((m = /^\/v3\/users\/sleep\/([^/]+)$/.exec(path))) {
    if (!validDate(m[1])) return polarError(400, 'BAD_REQUEST', 'Invalid date')
    const night = datesIn(state, m[1], m[1]).length ? sleepFor(user, m[1]) : null
    return night ? { status: 200, body: night } : polarError(404, 'NOT_FOUND', 'No sleep data for date')
  }
  if (path === '/v3/users/nightly-recharge') {
    return { status: 200, body: { recharges: collect(datesIn(state, '0000-01-01', today), (d) => rechargeFor(user, d)) } }
  }
  if ((m = /^\/v3\/users\/nightly-recharge\/([^/]+)$/.exec(path))) {
    if (!validDate(m[1])) return polarError(400, 'BAD_REQUEST', 'Invalid date')
    const recharge = datesIn(state, m[1], m[1]).length ? rechargeFor(user, m[1]) : null
    return recharge ? { status: 200, body: recharge } : polarError(404, 'NOT_FOUND', 'No nightly recharge data for date')
  }

  // Daily activity (non-transactional): bare array; per-date 204.
  if (path === '/v3/users/activities') {
    const range = readRange(state, q, false, true)
    if (isResponse(range)) return range
    const withSamples = flag(q, 'steps') || flag(q, 'activity_zones') || flag(q, 'inactivity_stamps')
    return { status: 200, body: collect(datesIn(state, range.from, range.to), (d) => activityFor(user, d, withSamples)) }
  }
  if ((m = /^\/v3\/users\/activities\/([^/]+)$/.exec(path)) && m[1] !== 'samples') {
    if (!validDate(m[1])) return polarError(400, 'BAD_REQUEST', 'Invalid or too old date')
    const withSamples = flag(q, 'steps') || flag(q, 'activity_zones') || flag(q, 'inactivity_stamps')
    const day = datesIn(state, m[1], m[1]).length ? activityFor(user, m[1], withSamples) : null
    return day ? { status: 200, body: day } : { status: 204 }
  }
  if (path === '/v3/users/activities/samples') {
    const range = readRange(state, q, false, true)
    if (isResponse(range)) return range
    return { status: 200, body: collect(datesIn(state, range.from, range.to), (d) => activityFor(user, d, true)?.samples ?? null) }
  }
  if ((m = /^\/v3\/users\/activities\/samples\/([^/]+)$/.exec(path))) {
    if (!validDate(m[1])) return polarError(400, 'BAD_REQUEST', 'Invalid or too old date')
    const samples = datesIn(state, m[1], m[1]).length ? (activityFor(user, m[1], true)?.samples ?? null) : null
    return samples ? { status: 200, body: samples } : { status: 204 }
  }

  // Exercises: bare array (≥ 30 days) and detail by hashed id; zones, samples and route only when flagged.
  const exerciseFlags = { zones: flag(q, 'zones'), samples: flag(q, 'samples'), route: flag(q, 'route') }
  if (path === '/v3/exercises') {
    const days = Math.max(30, state.window)
    const sessions = sessionsBetween(user, state.windowStart(days), today)
    return { status: 200, body: sessions.map((s) => exerciseWire(user, s, exerciseFlags)) }
  }
  if ((m = /^\/v3\/exercises\/([^/]+)$/.exec(path))) {
    const days = Math.max(30, state.window)
    const session = sessionsBetween(user, state.windowStart(days), today).find((s) => s.id === m![1])
    if (!session) return polarError(404, 'NOT_FOUND', 'Exercise not found')
    return { status: 200, body: exerciseWire(user, session, exerciseFlags) }
  }
  if (/^\/v3\/exercises\/[^/]+\/(samples|zones|heart-rate-zones)$/.test(path)) {
    return polarError(404, 'NOT_FOUND', 'Not found')
  }

  // Cardio load: one entry per day, always (LOAD_STATUS_NOT_AVAILABLE when not computable).
  if (path === '/v3/users/cardio-load') {
    return { status: 200, body: datesIn(state, addDaysTo(today, -27), today, 28).map((d) => cardioFor(user, d)) }
  }
  if (path === '/v3/users/cardio-load/date') {
    const range = readRange(state, q, true)
    if (isResponse(range)) return range
    return { status: 200, body: datesIn(state, range.from, range.to).map((d) => cardioFor(user, d)) }
  }
  if ((m = /^\/v3\/users\/cardio-load\/period\/days\/(\d+)$/.exec(path))) {
    const days = Number(m[1])
    if (days < 1 || days > 180) return polarError(400, 'BAD_REQUEST', 'days must be 1-180')
    return { status: 200, body: datesIn(state, addDaysTo(today, -(days - 1)), today).map((d) => cardioFor(user, d)) }
  }
  if ((m = /^\/v3\/users\/cardio-load\/([^/]+)$/.exec(path))) {
    if (!validDate(m[1])) return polarError(400, 'BAD_REQUEST', 'Invalid date')
    const inWindow = datesIn(state, m[1], m[1]).length > 0
    const entry = cardioFor(user, m[1])
    return { status: 200, body: [inWindow ? entry : { ...cardioFor(user, m[1]), ...NOT_AVAILABLE, date: m[1] }] }
  }

  // SleepWise: bare arrays, 204 when none.
  if (path === '/v3/users/sleepwise/alertness' || path === '/v3/users/sleepwise/alertness/date') {
    const range = path.endsWith('/date') ? readRange(state, q, true) : { from: addDaysTo(today, -27), to: today }
    if (isResponse(range)) return range
    return listOrNoContent(collect(datesIn(state, range.from, range.to), (d) => alertnessFor(user, d)))
  }
  if (path === '/v3/users/sleepwise/circadian-bedtime' || path === '/v3/users/sleepwise/circadian-bedtime/date') {
    const range = path.endsWith('/date') ? readRange(state, q, true) : { from: addDaysTo(today, -27), to: today }
    if (isResponse(range)) return range
    return listOrNoContent(collect(datesIn(state, range.from, range.to), (d) => bedtimeFor(user, d)))
  }

  // Biosensing: bare arrays, 204 when none (always for devices without the sensors).
  const bio: Record<string, (d: string) => unknown[]> = {
    '/v3/users/biosensing/spo2': (d) => spo2For(user, d),
    '/v3/users/biosensing/ecg': (d) => ecgFor(user, d),
    '/v3/users/biosensing/bodytemperature': (d) => bodyTemperatureFor(user, d),
    '/v3/users/biosensing/skintemperature': (d) => {
      const entry = skinTemperatureFor(user, d)
      return entry ? [entry] : []
    },
    '/v3/users/biosensing/skincontacts': () => [],
  }
  if (bio[path]) {
    const range = readRange(state, q, false)
    if (isResponse(range)) return range
    return listOrNoContent(datesIn(state, range.from, range.to).flatMap((d) => bio[path](d)))
  }

  // Continuous heart rate: range call (wrapper or array), per-date 404.
  if (path === '/v3/users/continuous-heart-rate') {
    const range = readRange(state, q, true)
    if (isResponse(range)) return range
    const days = collect(datesIn(state, range.from, range.to), (d) => heartRateFor(user, d))
    return { status: 200, body: state.options.heartRateShape === 'array' ? days : { heart_rates: days } }
  }
  if ((m = /^\/v3\/users\/continuous-heart-rate\/([^/]+)$/.exec(path))) {
    if (!validDate(m[1])) return polarError(400, 'BAD_REQUEST', 'Invalid date')
    const day = datesIn(state, m[1], m[1]).length ? heartRateFor(user, m[1]) : null
    return day ? { status: 200, body: day } : polarError(404, 'NOT_FOUND', 'No continuous heart rate data for date')
  }

  // Physical information (profile data, non-transactional).
  if (path === '/v3/users/physical-info') return { status: 200, body: physicalInfoFor(user, today) }

  return polarError(404, 'NOT_FOUND', `No such resource: ${path}`)
}

const NOT_AVAILABLE = {
  cardio_load_level: { very_low: 0.0, low: 0.0, medium: 0.0, high: 0.0, very_high: 0.0 },
  cardio_load_status: 'LOAD_STATUS_NOT_AVAILABLE',
  cardio_load_ratio: -1.0,
  cardio_load: -1.0,
  strain: 0.0,
  tolerance: -1.0,
}

function collect<T>(dates: string[], make: (date: string) => T | null): T[] {
  const out: T[] = []
  for (const d of dates) {
    const item = make(d)
    if (item !== null) out.push(item)
  }
  return out
}

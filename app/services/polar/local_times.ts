/**
 * Time helpers for the mixed formats of AccessLink v3 (reference §0, §2, §5, §8, §9, §13.4):
 * offset datetimes on sleep, naive local times plus minute offsets on exercises, naive UTC
 * (with fractional seconds) on SleepWise and biosensing, `HH:MM` / `HH:mm:ss` sample keys that
 * roll over midnight, and epoch test times in seconds or milliseconds.
 *
 * "Local" strings are wall-clock times `YYYY-MM-DD HH:MM:SS` in the user's own time zone, the
 * format of the spec's time-of-measurement fields. All arithmetic treats wall-clock times as if
 * they were UTC, so the machine's time zone never matters.
 */

const NAIVE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/
const ZONED_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})$/i
const CLOCK_RE = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 86_400_000

/** A wall-clock time with its offset from UTC when known. */
export interface ParsedDateTime {
  /** Wall-clock time `YYYY-MM-DD HH:MM:SS` as the user saw it. */
  local: string
  /** Minutes east of UTC, or null when the source carries no offset. */
  offsetMinutes: number | null
  /** The instant as ISO UTC (`…Z`), or null when the offset is unknown. */
  utc: string | null
}

/** True for a real calendar date `YYYY-MM-DD` (rejects 2026-02-30). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_RE.test(value)) return false
  const ms = Date.parse(`${value}T00:00:00Z`)
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value
}

/** Adds whole days to a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/**
 * Splits the inclusive range `from`…`to` into consecutive inclusive chunks of at most
 * `maxDays` calendar days, oldest first (AccessLink range calls accept at most 28 days).
 */
export function dateChunks(from: string, to: string, maxDays = 28): Array<{ from: string; to: string }> {
  const chunks: Array<{ from: string; to: string }> = []
  let start = from
  while (daysBetween(start, to) >= 0) {
    const candidate = addDays(start, maxDays - 1)
    const end = daysBetween(candidate, to) >= 0 ? candidate : to
    chunks.push({ from: start, to: end })
    start = addDays(end, 1)
  }
  return chunks
}

/**
 * Wall-clock milliseconds (wall time read as if UTC) of a naive `YYYY-MM-DD[THH:MM[:SS[.fff]]]`;
 * null for a date that does not exist (2026-02-30), a year before 100 (Date.UTC would read it as
 * 19xx), or a time of day that runs into another day. Computed, not checked through a Date: a
 * sync converts every sample's time.
 */
export function naiveToWallMs(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const match = NAIVE_RE.exec(value.trim())
  if (!match) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = match
  const year = +y
  const month = +mo
  const day = +d
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null
  const timeOfDay = ((+h * 60 + +mi) * 60 + +s) * 1000 + (frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0)
  return timeOfDay < DAY_MS ? Date.UTC(year, month - 1, day) + timeOfDay : null
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Days of a month of the proleptic Gregorian calendar, as Date counts them. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return MONTH_DAYS[month - 1]
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
}

/** `00`…`59`: two-digit clock fields without padding work per call. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'))

/** The last day formatted (`YYYY-MM-DD` by toISOString): samples come a day at a time. */
let lastDay = Number.NaN
let lastDayText = ''

/** Whole seconds of Date's range (±8.64e15 ms). */
const MAX_SECONDS = 8.64e12

/**
 * Formats wall-clock milliseconds as `YYYY-MM-DD HH:MM:SS` (fractions dropped), as the ISO text
 * of the whole second reads: the date part through toISOString once per day, the time of day by
 * arithmetic. Years outside 0000–9999 (six-digit ISO years) and times outside Date's range (a
 * RangeError) take the ISO text itself.
 */
export function formatWallMs(ms: number): string {
  const seconds = Math.floor(ms / 1000)
  const day = Math.floor(seconds / 86_400)
  if (day !== lastDay) {
    const iso = Math.abs(seconds) <= MAX_SECONDS ? new Date(day * DAY_MS).toISOString() : ''
    if (iso.length !== 24) return isoWallText(seconds)
    lastDayText = iso.slice(0, 10)
    lastDay = day
  }
  const ofDay = seconds - day * 86_400
  const hours = Math.floor(ofDay / 3600)
  const minutes = Math.floor((ofDay % 3600) / 60)
  return `${lastDayText} ${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[ofDay % 60]}`
}

function isoWallText(seconds: number): string {
  const iso = new Date(seconds * 1000).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

/**
 * Normalises a naive local timestamp (`2026-08-17T20:14:48`, `2026-06-10T00:00`,
 * `2022-11-20T20:52:20.57`) to `YYYY-MM-DD HH:MM:SS`; null when missing or malformed.
 */
export function naiveToLocal(value: unknown): string | null {
  const ms = naiveToWallMs(value)
  return ms === null ? null : formatWallMs(ms)
}

/**
 * Parses a timestamp that may carry an offset (`2026-08-19T23:10:12+02:00`, `…Z`) or none.
 * The wall-clock time is kept as written (the user's local time for sleep).
 */
export function parseDateTime(value: unknown): ParsedDateTime | null {
  if (typeof value !== 'string') return null
  const text = value.trim()
  const zoned = ZONED_RE.exec(text)
  if (zoned) {
    const [, y, mo, d, h, mi, s = '0', frac = '', zone] = zoned
    const wall = naiveToWallMs(`${y}-${mo}-${d}T${h}:${mi}:${s.padStart(2, '0')}${frac ? `.${frac}` : ''}`)
    if (wall === null) return null
    const offsetMinutes = parseZone(zone)
    return {
      local: formatWallMs(wall),
      offsetMinutes,
      utc: new Date(wall - offsetMinutes * 60_000).toISOString(),
    }
  }
  const local = naiveToLocal(text)
  return local === null ? null : { local, offsetMinutes: null, utc: null }
}

/**
 * A naive local time plus its minute offset (exercise `start_time` + `start_time_utc_offset`):
 * local = the value as written; UTC = local − offset.
 */
export function localWithOffset(value: unknown, offsetMinutes: unknown): ParsedDateTime | null {
  const wall = naiveToWallMs(value)
  if (wall === null) return null
  const offset = finiteNumber(offsetMinutes)
  return {
    local: formatWallMs(wall),
    offsetMinutes: offset,
    utc: offset === null ? null : new Date(wall - offset * 60_000).toISOString(),
  }
}

/**
 * A naive UTC time (SleepWise, biosensing; may carry fractional seconds or a stray `Z`) shifted into
 * the user's local wall clock by `offsetMinutes` (treated as 0 when unknown).
 */
export function utcNaiveToLocal(value: unknown, offsetMinutes: unknown): ParsedDateTime | null {
  const text = typeof value === 'string' ? value.trim().replace(/Z$/i, '') : value
  const wall = naiveToWallMs(text)
  if (wall === null) return null
  const offset = finiteNumber(offsetMinutes)
  return {
    local: formatWallMs(wall + (offset ?? 0) * 60_000),
    offsetMinutes: offset,
    utc: new Date(wall).toISOString(),
  }
}

/**
 * Epoch test time (ECG, SpO2) in seconds or milliseconds — values above 10^11 are milliseconds
 * (reference §9) — as local wall clock via the minute offset and as UTC.
 */
export function epochToLocal(value: unknown, offsetMinutes: unknown): ParsedDateTime | null {
  const raw = finiteNumber(value)
  if (raw === null || raw <= 0) return null
  const ms = raw > 1e11 ? raw : raw * 1000
  const offset = finiteNumber(offsetMinutes)
  return {
    local: formatWallMs(ms + (offset ?? 0) * 60_000),
    offsetMinutes: offset,
    utc: new Date(Math.floor(ms / 1000) * 1000).toISOString(),
  }
}

/** Seconds of the day for a sample key `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`; null if malformed. */
export function parseClockKey(key: unknown): number | null {
  if (typeof key !== 'string') return null
  // The common `HH:MM` and `HH:MM:SS` keys read digit by digit; anything else through the pattern.
  if ((key.length === 5 || (key.length === 8 && key.charCodeAt(5) === 58)) && key.charCodeAt(2) === 58) {
    const h = digits(key, 0)
    const m = digits(key, 3)
    const s = key.length === 8 ? digits(key, 6) : 0
    if (h >= 0 && m >= 0 && s >= 0) return h > 23 || m > 59 || s > 59 ? null : h * 3600 + m * 60 + s
  }
  const match = CLOCK_RE.exec(key.trim())
  if (!match) return null
  const [, h, m, s = '0'] = match
  if (+h > 23 || +m > 59 || +s > 59) return null
  return +h * 3600 + +m * 60 + +s
}

/** The two ASCII digits at `at` as a number, or -1. */
function digits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48
  const ones = text.charCodeAt(at + 1) - 48
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1
}

/** One sample of a clock-keyed series placed on the calendar. */
export interface TimedSample<T> {
  /** Local wall-clock time `YYYY-MM-DD HH:MM:SS`. */
  at: string
  value: T
}

/**
 * Places clock-keyed samples (`{"23:10": 61, "00:05": 58}`) on the calendar. Each key gets the
 * first date at or after `anchorLocal` minus `toleranceMinutes`, so keys after midnight roll over
 * to the next day whatever order the object arrives in. Malformed keys are skipped; the result is
 * sorted by time.
 */
export function expandClockSeries<T>(
  samples: Record<string, T> | null | undefined,
  anchorLocal: string,
  toleranceMinutes = 60
): TimedSample<T>[] {
  if (!samples || typeof samples !== 'object') return []
  const anchor = naiveToWallMs(anchorLocal)
  if (anchor === null) return []
  const earliest = anchor - toleranceMinutes * 60_000
  const anchorDay = Math.floor(anchor / DAY_MS) * DAY_MS
  const out: Array<{ ms: number; value: T }> = []
  for (const [key, value] of Object.entries(samples)) {
    const seconds = parseClockKey(key)
    if (seconds === null) continue
    let ms = anchorDay + seconds * 1000
    if (ms < earliest) ms += DAY_MS
    out.push({ ms, value })
  }
  out.sort((a, b) => a.ms - b.ms)
  return out.map(({ ms, value }) => ({ at: formatWallMs(ms), value }))
}

/**
 * Anchor for a night known only by its wake-up date (nightly recharge): noon of the previous day,
 * so evening keys land on the eve and keys after midnight on the wake-up date.
 */
export function wakeDateAnchor(date: string): string {
  return `${addDays(date, -1)} 12:00:00`
}

function parseZone(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0
  const sign = zone.startsWith('-') ? -1 : 1
  const digits = zone.slice(1).replace(':', '')
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)))
}

function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

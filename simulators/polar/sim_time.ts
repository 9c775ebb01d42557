/**
 * Wall-clock helpers of the simulator. Times are kept as "wall milliseconds" (the user's local
 * wall clock read as if it were UTC) and formatted the way each AccessLink endpoint does.
 */

export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS)
}

/** `YYYY-MM-DD` of a day number. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/** Adds whole days to a `YYYY-MM-DD` date. */
export function addDaysTo(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days)
}

/** Wall milliseconds of local midnight starting `date`. */
export function midnight(date: string): number {
  return Date.parse(`${date}T00:00:00Z`)
}

/** 0 = Monday … 6 = Sunday. */
export function weekday(date: string): number {
  return (((dayNumber(date) + 3) % 7) + 7) % 7
}

/** Monday-based week counter. */
export function weekIndex(date: string): number {
  return Math.floor((dayNumber(date) + 3) / 7)
}

/** `YYYY-MM-DDTHH:MM:SS` (or with `.cc` hundredths, or without seconds). */
export function naive(ms: number, style: 'seconds' | 'minutes' | 'hundredths' = 'seconds'): string {
  const iso = new Date(ms).toISOString()
  if (style === 'minutes') return iso.slice(0, 16)
  if (style === 'hundredths') return iso.slice(0, 22)
  return iso.slice(0, 19)
}

/** `YYYY-MM-DDTHH:MM:SS+02:00` for a wall time and its offset in minutes. */
export function withOffset(wallMs: number, offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const hh = String(Math.floor(abs / 60)).padStart(2, '0')
  const mm = String(abs % 60).padStart(2, '0')
  return `${naive(wallMs)}${sign}${hh}:${mm}`
}

/** Naive UTC `YYYY-MM-DDTHH:MM:SS[.cc]` of a local wall time (SleepWise, biosensing). */
export function utcNaive(wallMs: number, offsetMinutes: number, hundredths = false): string {
  return naive(wallMs - offsetMinutes * MINUTE_MS, hundredths ? 'hundredths' : 'seconds')
}

/** `HH:MM` clock key. */
export function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16)
}

/** `HH:MM:SS` clock value. */
export function hhmmss(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19)
}

/** Floors a time to the whole minute. */
export function floorMinute(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS
}

/**
 * Unit conversions and rounding of the derived record fields (DESIGN §4),
 * shared by the JSON transformers and the CSV export. Null in, null out:
 * null means "not measured", a real 0 stays 0.
 */

/** `value` rounded half away from zero to `digits` decimals, without binary drift (1.005 → 1.01). */
export function roundTo(value: number | null, digits: number): number | null {
  if (value === null || !Number.isFinite(value)) return null
  // Most stored values are whole numbers already (scores, steps, bpm): nothing to round.
  if (Number.isInteger(value)) return value === 0 ? 0 : value
  const factor = 10 ** digits
  const scaled = Math.abs(value) * factor
  // Only a product within noise of a half can round the wrong way (1.005 * 100 = 100.49999999999999);
  // toPrecision(15) drops that noise. It costs a string round trip, so only those take it.
  const nearHalf = Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-9
  const rounded = Math.round(nearHalf ? Number(scaled.toPrecision(15)) : scaled) / factor
  return rounded === 0 ? 0 : Math.sign(value) * rounded
}

/** Seconds → hours, 2 dp. */
export const hoursFromSeconds = (seconds: number | null) => (seconds === null ? null : roundTo(seconds / 3600, 2))

/** Seconds → minutes, 1 dp. */
export const minutesFromSeconds = (seconds: number | null) => (seconds === null ? null : roundTo(seconds / 60, 1))

/** Metres → kilometres, 2 dp. */
export const kmFromMeters = (meters: number | null) => (meters === null ? null : roundTo(meters / 1000, 2))

/** A number rounded to an integer (half away from zero), or null. */
export const toInteger = (value: number | null) => roundTo(value, 0)

/**
 * Sleep total = light + deep + REM seconds; null only when all three are
 * unmeasured (a missing stage counts as 0 next to measured ones).
 */
export function totalSleepSeconds(light: number | null, deep: number | null, rem: number | null): number | null {
  const stages = [light, deep, rem]
  if (stages.every((value) => value === null)) return null
  return stages.reduce<number>((sum, value) => sum + (value ?? 0), 0)
}

/** A stored boolean (SQLite gives 0/1), or null. */
export const toBoolean = (value: boolean | number | null) => (value === null ? null : Boolean(value))

/** The `HH:MM:SS` part of a local `YYYY-MM-DD HH:MM:SS` time, or null. */
export const clockTime = (localTime: string | null) => (localTime === null ? null : localTime.slice(11, 19) || null)

/** A JSON text column parsed, or null when empty or unreadable. */
export function parseJson<T>(text: string | null): T | null {
  if (text === null || text === '') return null
  try {
    return JSON.parse(text) as T
  } catch {
    return null
  }
}

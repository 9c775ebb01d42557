/**
 * ISO-8601 duration helpers for AccessLink values such as `PT2H44M45S`, `PT51M5S`, `PT8H`
 * and the seconds-only form with fractions `PT14295.773S` (reference §0).
 */

const DURATION_RE =
  /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/**
 * Parses an ISO-8601 duration into seconds (fractions kept). Days are accepted (`P1DT2H`);
 * years, months and weeks are not used by AccessLink and yield null. Returns null for a missing,
 * empty or malformed value, so callers can store "not measured".
 */
export function parseIsoDuration(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const text = value.trim().toUpperCase()
  if (text === 'P' || text === 'PT' || text === '') return null
  const match = DURATION_RE.exec(text)
  if (!match) return null
  const [, d, h, m, s] = match
  if (d === undefined && h === undefined && m === undefined && s === undefined) return null
  const seconds =
    Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0)
  return Number.isFinite(seconds) ? seconds : null
}

/** Duration in minutes rounded to `decimals` places, or null when the value is missing or malformed. */
export function isoDurationToMinutes(value: unknown, decimals = 1): number | null {
  const seconds = parseIsoDuration(value)
  return seconds === null ? null : roundTo(seconds / 60, decimals)
}

/**
 * Formats seconds as an ISO duration. `hms` gives `PT1H2M3S` (fractions on the seconds part),
 * `seconds` gives the seconds-only form `PT3723.5S` that Polar uses for some exercises.
 */
export function formatIsoDuration(totalSeconds: number, style: 'hms' | 'seconds' = 'hms'): string {
  const safe = Math.max(0, totalSeconds)
  if (style === 'seconds') return `PT${trimNumber(safe, 3)}S`
  const hours = Math.floor(safe / 3600)
  const minutes = Math.floor((safe - hours * 3600) / 60)
  const seconds = safe - hours * 3600 - minutes * 60
  let out = 'PT'
  if (hours > 0) out += `${hours}H`
  if (minutes > 0) out += `${minutes}M`
  if (seconds > 0 || out === 'PT') out += `${trimNumber(seconds, 3)}S`
  return out
}

/** Rounds half away from zero to `decimals` places (0.125 → 0.13 at 2 dp). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals
  const scaled = Math.abs(value) * factor
  const rounded = Math.round(Number(scaled.toPrecision(15))) / factor
  return value < 0 ? -rounded : rounded
}

function trimNumber(value: number, decimals: number): string {
  return String(roundTo(value, decimals))
}

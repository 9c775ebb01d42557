import { formatWallMs, naiveToWallMs } from '#services/polar/local_times'
import type { StepRun, ZoneChange } from '#services/polar/mappers/activity_samples_mapper'

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
/** Minutes of a calendar day: index 0 is 00:00, 1439 is 23:59. */
export const MINUTES_PER_DAY = 1440

/** The interval Polar documents and sends; used when a day has none or an unusable one. */
const DEFAULT_INTERVAL_MS = 60_000

/** One activity-zone period of a day. */
export interface ZonePeriod {
  /** Local `YYYY-MM-DD HH:MM:SS`. */
  start: string
  /** Local start of the next zone, or midnight ending the day. */
  end: string
  zone: string | null
  durationSeconds: number
}

/**
 * Expands Polar's collapsed step runs into steps per minute of `date` (1440 entries, index = minute
 * of the day). A run repeats its count every `intervalMs` until the next run starts (reference §4.1:
 * equal counts are collapsed). The last run lasts until midnight when it counts 0; a last run that
 * counts steps lasts as many intervals as `totalSteps` leaves for it (Polar sends today only up to
 * the watch's last sync), one interval when the total is unknown. Minutes before the first run, and
 * minutes of a run whose count is null, are null (not measured); counts of intervals shorter than a
 * minute add up in their minute. Null when there are no runs.
 */
export function stepsPerMinute(
  date: string,
  runs: StepRun[],
  intervalMs: number | null,
  totalSteps: number | null
): Array<number | null> | null {
  const dayStart = naiveToWallMs(date)
  if (dayStart === null || runs.length === 0) return null
  const interval = intervalMs !== null && intervalMs >= 1000 && intervalMs <= DAY_MS ? intervalMs : DEFAULT_INTERVAL_MS
  const dayEnd = dayStart + DAY_MS
  const starts = runs.map((run) => naiveToWallMs(run.time))
  const minutes = new Array<number | null>(MINUTES_PER_DAY).fill(null)
  let counted = 0
  runs.forEach((run, i) => {
    const start = starts[i]
    if (start === null) return
    let end = i + 1 < runs.length ? (starts[i + 1] ?? dayEnd) : dayEnd
    if (i === runs.length - 1 && run.steps !== null && run.steps > 0) {
      const left = totalSteps === null ? run.steps : totalSteps - counted
      end = Math.min(end, start + Math.max(1, Math.round(left / run.steps)) * interval)
    }
    for (let t = start; t < end && t < dayEnd; t += interval) {
      if (t < dayStart || run.steps === null) continue
      const minute = Math.floor((t - dayStart) / MINUTE_MS)
      minutes[minute] = (minutes[minute] ?? 0) + run.steps
      counted += run.steps
    }
  })
  return minutes
}

/**
 * Zone change points as periods: each zone lasts until the next change, the last one until the
 * midnight ending `date`. Changes outside the day are dropped.
 */
export function zonePeriods(date: string, changes: ZoneChange[]): ZonePeriod[] {
  const dayStart = naiveToWallMs(date)
  if (dayStart === null) return []
  const dayEnd = dayStart + DAY_MS
  const timed = changes
    .map((change) => ({ zone: change.zone, at: naiveToWallMs(change.time) }))
    .filter((change): change is { zone: string | null; at: number } => change.at !== null && change.at >= dayStart && change.at < dayEnd)
  return timed.map((change, i) => {
    const end = i + 1 < timed.length ? timed[i + 1].at : dayEnd
    return { start: formatWallMs(change.at), end: formatWallMs(end), zone: change.zone, durationSeconds: Math.round((end - change.at) / 1000) }
  })
}

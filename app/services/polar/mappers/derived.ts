import { roundTo } from '#services/polar/durations'

/**
 * Read-side derivations of the spec's record fields from the stored raw units (DESIGN §4).
 * Every helper returns null when its input is null: "not measured" never turns into 0.
 */

/** Seconds → hours, 2 dp (sleep stage hours). */
export function secondsToHours(seconds: number | null): number | null {
  return seconds === null ? null : roundTo(seconds / 3600, 2)
}

/**
 * Sleep `total_sleep_hours` = light + deep + REM, 2 dp; null when none of the three is known
 * (a partial night), otherwise the known stages are summed.
 */
export function totalSleepHours(row: {
  lightSleepSeconds: number | null
  deepSleepSeconds: number | null
  remSleepSeconds: number | null
}): number | null {
  const parts = [row.lightSleepSeconds, row.deepSleepSeconds, row.remSleepSeconds]
  if (parts.every((p) => p === null)) return null
  return secondsToHours(parts.reduce<number>((sum, p) => sum + (p ?? 0), 0))
}

/** Metres → km, 2 dp (activity and exercise `distance_km`). */
export function metersToKm(meters: number | null): number | null {
  return meters === null ? null : roundTo(meters / 1000, 2)
}

/** Seconds → minutes, 1 dp (activity `active_minutes`, exercise `duration_minutes`). */
export function secondsToMinutes(seconds: number | null): number | null {
  return seconds === null ? null : roundTo(seconds / 60, 1)
}

/** Activity `activity_score` = Polar `daily_activity` rounded to an integer. */
export function activityScore(dailyActivity: number | null): number | null {
  return dailyActivity === null ? null : Math.round(dailyActivity)
}

/** `HH:MM:SS` of a local `YYYY-MM-DD HH:MM:SS` (bedtime `preferred_sleep_start` etc.). */
export function clockPart(localTime: string | null): string | null {
  return localTime === null ? null : localTime.slice(11, 19)
}

import { parseIsoDuration } from '#services/polar/durations'
import { isIsoDate, naiveToLocal } from '#services/polar/local_times'
import type { WireActivityDaySamples, WireDailyActivity } from '#services/polar/wire_types'
import { dedupeBy, int, isRecord, json, num, str } from '#services/polar/mappers/values'

/**
 * Columns of `daily_activities` (model DailyActivity) in raw units, without `userId`. The spec's
 * `distance_km`, `active_minutes` and `activity_score` are derived on read (see `./derived`).
 */
export interface DailyActivityRow {
  date: string
  startTime: string | null
  endTime: string | null
  steps: number | null
  caloriesTotal: number | null
  caloriesActive: number | null
  /** Metres estimated from steps (`distance_from_steps`). */
  distanceMeters: number | null
  activeDurationSeconds: number | null
  inactiveDurationSeconds: number | null
  /** Percent of the daily activity goal (may exceed 100). */
  dailyActivity: number | null
  inactivityAlertCount: number | null
  /** JSON `{interval_ms, total_steps, samples: [{time, steps}]}` when samples were requested. */
  stepSamples: string | null
  /** JSON `[{time, zone}]` (each marks where a zone starts) when samples were requested. */
  activityZones: string | null
}

/**
 * Maps one daily activity summary; the day is the first 10 characters of `start_time` (zone-less
 * local midnight, sometimes without seconds). Null when no valid day can be read.
 */
export function mapDailyActivity(wire: WireDailyActivity): DailyActivityRow | null {
  if (!isRecord(wire)) return null
  const date = typeof wire.start_time === 'string' ? wire.start_time.slice(0, 10) : null
  if (!isIsoDate(date)) return null
  const samples: WireActivityDaySamples | null = isRecord(wire.samples) ? wire.samples : null
  return {
    date,
    startTime: naiveToLocal(wire.start_time),
    endTime: naiveToLocal(wire.end_time),
    steps: int(wire.steps),
    caloriesTotal: int(wire.calories),
    caloriesActive: int(wire.active_calories),
    distanceMeters: num(wire.distance_from_steps),
    activeDurationSeconds: parseIsoDuration(wire.active_duration),
    inactiveDurationSeconds: parseIsoDuration(wire.inactive_duration),
    dailyActivity: num(wire.daily_activity),
    inactivityAlertCount: int(wire.inactivity_alert_count),
    stepSamples: samples ? stepSamplesJson(samples) : null,
    activityZones: samples ? zonesJson(samples) : null,
  }
}

function stepSamplesJson(samples: WireActivityDaySamples): string | null {
  const steps = samples.steps
  if (!isRecord(steps)) return null
  const list = Array.isArray(steps.samples) ? steps.samples : []
  return json({
    interval_ms: int(steps.interval_ms),
    total_steps: int(steps.total_steps),
    samples: list.filter(isRecord).map((s) => ({ time: naiveToLocal(s.timestamp), steps: int(s.steps) })),
  })
}

function zonesJson(samples: WireActivityDaySamples): string | null {
  const zones = isRecord(samples.activity_zones) && Array.isArray(samples.activity_zones.samples) ? samples.activity_zones.samples : []
  return json(zones.filter(isRecord).map((z) => ({ time: naiveToLocal(z.timestamp), zone: str(z.zone, 32) })))
}

/** Maps a list of summaries, one row per day. */
export function mapDailyActivityList(wires: WireDailyActivity[]): DailyActivityRow[] {
  return dedupeBy(wires.map(mapDailyActivity), (r) => r.date)
}

import { utcNaiveToLocal } from '#services/polar/local_times'
import type { WireSleepwiseAlertness, WireSleepwiseBedtime } from '#services/polar/wire_types'
import { dedupeBy, int, isRecord, json, num, str } from '#services/polar/mappers/values'

/**
 * Columns of `sleepwise_alertness` (model SleepwiseAlertness), without `userId`. Polar sends
 * naive UTC times; every time here is the user's local wall clock `YYYY-MM-DD HH:MM:SS`
 * (UTC + `sleep_timezone_offset_minutes`), and `periodDate` is the date part of the local start.
 */
export interface SleepwiseAlertnessRow {
  periodStartTime: string
  periodEndTime: string | null
  periodDate: string
  grade: number | null
  gradeValiditySeconds: number | null
  gradeType: string | null
  gradeClassification: string | null
  validity: string | null
  sleepInertia: string | null
  sleepType: string | null
  resultType: string | null
  sleepPeriodStartTime: string | null
  sleepPeriodEndTime: string | null
  sleepTimezoneOffsetMinutes: number | null
  /** JSON `[{start_time, end_time, alertness_level, validity}]` in local time. */
  hourlyData: string | null
}

/** Columns of `sleepwise_bedtimes` (model SleepwiseBedtime), local times as for alertness. */
export interface SleepwiseBedtimeRow {
  periodStartTime: string
  periodEndTime: string | null
  periodDate: string
  preferredSleepStartTime: string | null
  preferredSleepEndTime: string | null
  sleepGateStartTime: string | null
  sleepGateEndTime: string | null
  quality: string | null
  validity: string | null
  resultType: string | null
  sleepTimezoneOffsetMinutes: number | null
}

/** Maps one alertness period; null without a readable `period_start_time`. Enums pass through. */
export function mapSleepwiseAlertness(wire: WireSleepwiseAlertness): SleepwiseAlertnessRow | null {
  if (!isRecord(wire)) return null
  const offset = int(wire.sleep_timezone_offset_minutes)
  const local = (value: unknown) => utcNaiveToLocal(value, offset)?.local ?? null
  const start = local(wire.period_start_time)
  if (start === null) return null
  const hourly = Array.isArray(wire.hourly_data) ? wire.hourly_data.filter(isRecord) : []
  return {
    periodStartTime: start,
    periodEndTime: local(wire.period_end_time),
    periodDate: start.slice(0, 10),
    grade: num(wire.grade),
    gradeValiditySeconds: int(wire.grade_validity_seconds),
    gradeType: str(wire.grade_type, 64),
    gradeClassification: str(wire.grade_classification, 64),
    validity: str(wire.validity, 64),
    sleepInertia: str(wire.sleep_inertia, 64),
    sleepType: str(wire.sleep_type, 64),
    resultType: str(wire.result_type, 64),
    sleepPeriodStartTime: local(wire.sleep_period_start_time),
    sleepPeriodEndTime: local(wire.sleep_period_end_time),
    sleepTimezoneOffsetMinutes: offset,
    hourlyData: json(
      hourly.map((h) => ({
        start_time: local(h.start_time),
        end_time: local(h.end_time),
        alertness_level: str(h.alertness_level, 64),
        validity: str(h.validity, 64),
      }))
    ),
  }
}

/** Maps one circadian bedtime period; null without a readable `period_start_time`. */
export function mapSleepwiseBedtime(wire: WireSleepwiseBedtime): SleepwiseBedtimeRow | null {
  if (!isRecord(wire)) return null
  const offset = int(wire.sleep_timezone_offset_minutes)
  const local = (value: unknown) => utcNaiveToLocal(value, offset)?.local ?? null
  const start = local(wire.period_start_time)
  if (start === null) return null
  return {
    periodStartTime: start,
    periodEndTime: local(wire.period_end_time),
    periodDate: start.slice(0, 10),
    preferredSleepStartTime: local(wire.preferred_sleep_period_start_time),
    preferredSleepEndTime: local(wire.preferred_sleep_period_end_time),
    sleepGateStartTime: local(wire.sleep_gate_start_time),
    sleepGateEndTime: local(wire.sleep_gate_end_time),
    quality: str(wire.quality, 64),
    validity: str(wire.validity, 64),
    resultType: str(wire.result_type, 64),
    sleepTimezoneOffsetMinutes: offset,
  }
}

/** Maps alertness periods, one row per local period start. */
export function mapSleepwiseAlertnessList(wires: WireSleepwiseAlertness[]): SleepwiseAlertnessRow[] {
  return dedupeBy(wires.map(mapSleepwiseAlertness), (r) => r.periodStartTime)
}

/** Maps bedtime periods, one row per local period start. */
export function mapSleepwiseBedtimeList(wires: WireSleepwiseBedtime[]): SleepwiseBedtimeRow[] {
  return dedupeBy(wires.map(mapSleepwiseBedtime), (r) => r.periodStartTime)
}

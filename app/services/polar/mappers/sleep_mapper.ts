import { expandClockSeries, isIsoDate, parseDateTime, wakeDateAnchor } from '#services/polar/local_times'
import type { WireSleep } from '#services/polar/wire_types'
import { code, dedupeBy, int, isRecord, json, num, positive, positiveSummary, str } from '#services/polar/mappers/values'

/**
 * Columns of `sleep_records` (model SleepRecord) filled from one Polar night, without `userId`.
 * Stage lengths stay in seconds (hours are derived on read, DESIGN §4); start/end are the user's
 * local wall clock `YYYY-MM-DD HH:MM:SS` plus their UTC offsets. HRV and breathing are not part of
 * a Polar sleep object: they come from the same night's Nightly Recharge (join on date at read).
 */
export interface SleepRow {
  date: string
  sleepStartTime: string | null
  sleepEndTime: string | null
  sleepStartOffsetMinutes: number | null
  sleepEndOffsetMinutes: number | null
  deviceId: string | null
  continuity: number | null
  continuityClass: number | null
  lightSleepSeconds: number | null
  deepSleepSeconds: number | null
  remSleepSeconds: number | null
  unrecognizedSleepSeconds: number | null
  sleepScore: number | null
  totalInterruptionSeconds: number | null
  shortInterruptionSeconds: number | null
  longInterruptionSeconds: number | null
  sleepCharge: number | null
  sleepGoalSeconds: number | null
  sleepRating: number | null
  sleepCycles: number | null
  groupDurationScore: number | null
  groupSolidityScore: number | null
  groupRegenerationScore: number | null
  /** Mean of the night's heart-rate samples > 0, rounded (DESIGN §4). */
  heartRateAvg: number | null
  heartRateMin: number | null
  heartRateMax: number | null
  /** JSON `[{time: "YYYY-MM-DD HH:MM:SS", stage: 0–5}]`, midnight rollover resolved. */
  hypnogram: string | null
  /** JSON `[{time: "YYYY-MM-DD HH:MM:SS", heart_rate: bpm}]`, midnight rollover resolved. */
  heartRateSamples: string | null
}

/**
 * Maps one Polar sleep night to a `sleep_records` row; null when the night has no valid `date`.
 * Partial nights (only date, start/end, score) give nulls elsewhere. `sleep_rating` 0 ("not
 * given"), `sleep_charge` ≤ 0 and `continuity` 0 are stored as null.
 */
export function mapSleep(wire: WireSleep): SleepRow | null {
  if (!isRecord(wire) || !isIsoDate(wire.date)) return null
  const start = parseDateTime(wire.sleep_start_time)
  const end = parseDateTime(wire.sleep_end_time)
  // Sample keys are local "HH:MM"; anchor them on the local start, else on the eve of the wake date.
  const anchor = start?.local ?? wakeDateAnchor(wire.date)
  const tolerance = start ? 60 : 0
  const hypnogram = expandClockSeries(isRecord(wire.hypnogram) ? wire.hypnogram : null, anchor, tolerance)
    .map(({ at, value }) => ({ time: at, stage: code(value, 0, 5) }))
  const heartRate = expandClockSeries(isRecord(wire.heart_rate_samples) ? wire.heart_rate_samples : null, anchor, tolerance)
    .map(({ at, value }) => ({ time: at, heart_rate: positive(value) }))
  const hr = positiveSummary(heartRate.map((s) => s.heart_rate))

  return {
    date: wire.date,
    sleepStartTime: start?.local ?? null,
    sleepEndTime: end?.local ?? null,
    sleepStartOffsetMinutes: start?.offsetMinutes ?? null,
    sleepEndOffsetMinutes: end?.offsetMinutes ?? null,
    deviceId: str(wire.device_id, 64),
    continuity: positive(wire.continuity),
    continuityClass: code(wire.continuity_class, 1, 5),
    lightSleepSeconds: int(wire.light_sleep),
    deepSleepSeconds: int(wire.deep_sleep),
    remSleepSeconds: int(wire.rem_sleep),
    unrecognizedSleepSeconds: int(wire.unrecognized_sleep_stage),
    sleepScore: int(wire.sleep_score),
    totalInterruptionSeconds: int(wire.total_interruption_duration),
    shortInterruptionSeconds: int(wire.short_interruption_duration),
    longInterruptionSeconds: int(wire.long_interruption_duration),
    sleepCharge: code(wire.sleep_charge, 1, 5),
    sleepGoalSeconds: int(positive(wire.sleep_goal)),
    sleepRating: code(wire.sleep_rating, 1, 5),
    sleepCycles: int(wire.sleep_cycles),
    groupDurationScore: num(wire.group_duration_score),
    groupSolidityScore: num(wire.group_solidity_score),
    groupRegenerationScore: num(wire.group_regeneration_score),
    heartRateAvg: hr.avg,
    heartRateMin: hr.min,
    heartRateMax: hr.max,
    hypnogram: json(hypnogram),
    heartRateSamples: json(heartRate),
  }
}

/** Maps a list of nights, dropping those without a date and keeping one row per date. */
export function mapSleepList(wires: WireSleep[]): SleepRow[] {
  return dedupeBy(wires.map(mapSleep), (r) => r.date)
}

import { isIsoDate } from '#services/polar/local_times'
import type { WireCardioLoad } from '#services/polar/wire_types'
import { dedupeBy, isRecord, nonNegative, str } from '#services/polar/mappers/values'

/** Columns of `cardio_loads` (model CardioLoad), without `userId`; `-1.0` sentinels are null. */
export interface CardioLoadRow {
  date: string
  cardioLoad: number | null
  strain: number | null
  tolerance: number | null
  cardioLoadRatio: number | null
  cardioLoadStatus: string | null
  levelVeryLow: number | null
  levelLow: number | null
  levelMedium: number | null
  levelHigh: number | null
  levelVeryHigh: number | null
}

/**
 * Maps one cardio-load day; null without a valid `date`. Every `-1.0` ("not available") becomes
 * null (DESIGN §3), a real 0 load stays 0, and the status passes through unchanged. Level
 * thresholds read `very_high` or the spec's `very-high`; an all-zero level block (sent on
 * LOAD_STATUS_NOT_AVAILABLE days) is a placeholder and is stored as nulls.
 */
export function mapCardioLoad(wire: WireCardioLoad): CardioLoadRow | null {
  if (!isRecord(wire) || !isIsoDate(wire.date)) return null
  const level: Record<string, unknown> = isRecord(wire.cardio_load_level) ? wire.cardio_load_level : {}
  const levels = [
    nonNegative(level.very_low ?? level['very-low']),
    nonNegative(level.low),
    nonNegative(level.medium),
    nonNegative(level.high),
    nonNegative(level.very_high ?? level['very-high']),
  ]
  const placeholder = levels.every((v) => v === 0 || v === null)
  const [veryLow, low, medium, high, veryHigh] = placeholder ? [null, null, null, null, null] : levels
  return {
    date: wire.date,
    cardioLoad: nonNegative(wire.cardio_load),
    strain: nonNegative(wire.strain),
    tolerance: nonNegative(wire.tolerance),
    cardioLoadRatio: nonNegative(wire.cardio_load_ratio),
    cardioLoadStatus: str(wire.cardio_load_status, 64),
    levelVeryLow: veryLow,
    levelLow: low,
    levelMedium: medium,
    levelHigh: high,
    levelVeryHigh: veryHigh,
  }
}

/** Maps a list of days, one row per date. */
export function mapCardioLoadList(wires: WireCardioLoad[]): CardioLoadRow[] {
  return dedupeBy(wires.map(mapCardioLoad), (r) => r.date)
}

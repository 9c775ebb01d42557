import { isIsoDate, parseClockKey } from '#services/polar/local_times'
import type { WireContinuousHeartRateDay } from '#services/polar/wire_types'
import { dedupeBy, isRecord, json, positive, positiveSummary } from '#services/polar/mappers/values'

/**
 * Columns of `heart_rate_days` (model HeartRateDay), without `userId`: the spec's daily summary
 * (min/avg/max/count over samples > 0, DESIGN §4) plus the samples themselves.
 */
export interface HeartRateDayRow {
  date: string
  hrMin: number | null
  hrAvg: number | null
  hrMax: number | null
  /** Number of valid samples (heart rate > 0). */
  sampleCount: number
  /** JSON `[{time: "HH:MM:SS", heart_rate: bpm | null}]` sorted by time; placeholders (0) are null. */
  samples: string | null
}

/** Maps one continuous heart-rate day; null without a valid `date`. */
export function mapHeartRateDay(wire: WireContinuousHeartRateDay): HeartRateDayRow | null {
  if (!isRecord(wire) || !isIsoDate(wire.date)) return null
  const list = Array.isArray(wire.heart_rate_samples) ? wire.heart_rate_samples.filter(isRecord) : []
  const samples = list
    .map((s) => ({ seconds: parseClockKey(s.sample_time), time: s.sample_time, heart_rate: positive(s.heart_rate) }))
    .filter((s): s is { seconds: number; time: string; heart_rate: number | null } => s.seconds !== null)
    .sort((a, b) => a.seconds - b.seconds)
    .map((s) => ({ time: normaliseClock(s.seconds), heart_rate: s.heart_rate === null ? null : Math.round(s.heart_rate) }))
  const summary = positiveSummary(samples.map((s) => s.heart_rate))
  return {
    date: wire.date,
    hrMin: summary.min,
    hrAvg: summary.avg,
    hrMax: summary.max,
    sampleCount: summary.count,
    samples: json(samples),
  }
}

function normaliseClock(seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':')
}

/**
 * Maps a list of days, one row per date. When a day arrives twice (two range chunks or a repeated
 * entry) the one with more valid samples wins.
 */
export function mapHeartRateDays(wires: WireContinuousHeartRateDay[]): HeartRateDayRow[] {
  const rows = wires.map(mapHeartRateDay).filter((r): r is HeartRateDayRow => r !== null)
  rows.sort((a, b) => a.sampleCount - b.sampleCount)
  return dedupeBy(rows, (r) => r.date)
}

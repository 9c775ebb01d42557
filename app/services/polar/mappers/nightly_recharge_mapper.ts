import { expandClockSeries, isIsoDate, wakeDateAnchor } from '#services/polar/local_times'
import type { WireNightlyRecharge } from '#services/polar/wire_types'
import { code, dedupeBy, int, isRecord, json, num, positive } from '#services/polar/mappers/values'

/**
 * Columns of `nightly_recharges` (model NightlyRecharge), without `userId`. `hrvAvg` is the
 * night's RMSSD in ms (the sleep record's `hrv_avg` too); `ansChargeStatus` stays Polar's code
 * 1–5 and is labelled on read with `ansChargeStatusLabel` (`#services/polar/labels`).
 */
export interface NightlyRechargeRow {
  date: string
  heartRateAvg: number | null
  beatToBeatAvg: number | null
  hrvAvg: number | null
  breathingRateAvg: number | null
  nightlyRechargeStatus: number | null
  ansCharge: number | null
  ansChargeStatus: number | null
  /** JSON `[{time: "YYYY-MM-DD HH:MM:SS", hrv: ms}]`. */
  hrvSamples: string | null
  /** JSON `[{time: "YYYY-MM-DD HH:MM:SS", breathing_rate: per minute}]`. */
  breathingSamples: string | null
}

/**
 * Maps one Nightly Recharge; null without a valid `date`. Sample keys roll over midnight from the
 * eve of the wake-up date. Zero placeholders (HR, RR interval, HRV, breathing) become null; the
 * ANS charge keeps a real 0 (it means "usual").
 */
export function mapNightlyRecharge(wire: WireNightlyRecharge): NightlyRechargeRow | null {
  if (!isRecord(wire) || !isIsoDate(wire.date)) return null
  const anchor = wakeDateAnchor(wire.date)
  const hrv = expandClockSeries(isRecord(wire.hrv_samples) ? wire.hrv_samples : null, anchor, 0)
    .map(({ at, value }) => ({ time: at, hrv: positive(value) }))
  const breathing = expandClockSeries(isRecord(wire.breathing_samples) ? wire.breathing_samples : null, anchor, 0)
    .map(({ at, value }) => ({ time: at, breathing_rate: positive(value) }))
  const ans = num(wire.ans_charge)
  return {
    date: wire.date,
    heartRateAvg: int(positive(wire.heart_rate_avg)),
    beatToBeatAvg: int(positive(wire.beat_to_beat_avg)),
    hrvAvg: positive(wire.heart_rate_variability_avg),
    breathingRateAvg: positive(wire.breathing_rate_avg),
    nightlyRechargeStatus: code(wire.nightly_recharge_status, 1, 6),
    ansCharge: ans === null || ans < -10 || ans > 10 ? null : ans,
    ansChargeStatus: code(wire.ans_charge_status, 1, 5),
    hrvSamples: json(hrv),
    breathingSamples: json(breathing),
  }
}

/** Maps a list of recharges, one row per date. */
export function mapNightlyRechargeList(wires: WireNightlyRecharge[]): NightlyRechargeRow[] {
  return dedupeBy(wires.map(mapNightlyRecharge), (r) => r.date)
}

import { lastDays, shiftDate, between, type DatedValue, type MetricName } from '#services/analytics/metrics'
import { iqrFences, mean, summarize } from '#services/analytics/stats'

/** Baseline status by number of days with a value (DESIGN §4). */
export type BaselineStatus = 'ready' | 'partial' | 'insufficient'

/** A computed baseline, before it is stored. Nulls follow DESIGN §4 "Analytics definitions". */
export interface BaselineResult {
  metricName: MetricName
  baselineValue: number
  baseline7d: number | null
  baseline30d: number | null
  baseline90d: number | null
  median: number
  q1: number | null
  q3: number | null
  iqr: number | null
  stdDev: number | null
  min: number
  max: number
  lowerBound: number | null
  upperBound: number | null
  sampleCount: number
  status: BaselineStatus
  dataStartDate: string
  dataEndDate: string
}

export const BASELINE_WINDOW_DAYS = 90
export const READY_MIN_DAYS = 21
export const PARTIAL_MIN_DAYS = 7

/** Rolling windows and the minimum number of values each needs. */
const ROLLING = [
  { days: 7, min: 3 },
  { days: 30, min: 15 },
  { days: 90, min: 45 },
] as const

export function baselineStatus(n: number): BaselineStatus {
  if (n >= READY_MIN_DAYS) return 'ready'
  if (n >= PARTIAL_MIN_DAYS) return 'partial'
  return 'insufficient'
}

/** Mean over the last `days` calendar days ending today, or null below `min` values. */
export function rollingMean(series: readonly DatedValue[], today: string, days: number, min: number) {
  const values = lastDays(series, today, days)
  return values.length >= min ? mean(values) : null
}

/**
 * Baseline of one metric over the 90 calendar days ending `today`; null when the window holds no
 * value (a metric without values has no baseline). Quartiles, IQR, bounds and SD are null while
 * the status is insufficient (< 7 values).
 */
export function computeBaseline(
  metricName: MetricName,
  series: readonly DatedValue[],
  today: string
): BaselineResult | null {
  const window = between(series, shiftDate(today, -(BASELINE_WINDOW_DAYS - 1)), today)
  if (window.length === 0) return null
  const values = window.map((p) => p.value)
  const s = summarize(values)
  const status = baselineStatus(s.n)
  const spread = status !== 'insufficient'
  const fences = iqrFences(s.q1, s.q3, 1.5)
  const [r7, r30, r90] = ROLLING.map((r) => rollingMean(window, today, r.days, r.min))
  return {
    metricName,
    baselineValue: s.mean,
    baseline7d: r7,
    baseline30d: r30,
    baseline90d: r90,
    median: s.median,
    q1: spread ? s.q1 : null,
    q3: spread ? s.q3 : null,
    iqr: spread ? s.iqr : null,
    stdDev: spread ? s.stdDev : null,
    min: s.min,
    max: s.max,
    lowerBound: spread ? fences.lower : null,
    upperBound: spread ? fences.upper : null,
    sampleCount: s.n,
    status,
    dataStartDate: window[0].date,
    dataEndDate: window[window.length - 1].date,
  }
}

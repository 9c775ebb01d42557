/**
 * Names, units and date-window helpers shared by the analytics services (DESIGN §4).
 * Pure: no I/O and no clock; "today" is always passed in as an ISO date string.
 */

/** Valid baseline metric names, in the order responses list them. */
export const METRIC_NAMES = [
  'hrv_rmssd',
  'sleep_score',
  'resting_hr',
  'training_load',
  'training_load_ratio',
] as const
export type MetricName = (typeof METRIC_NAMES)[number]

/** Valid pattern names, in the order responses list them. */
export const PATTERN_NAMES = [
  'sleep_hrv_correlation',
  'overtraining_risk',
  'hrv_trend',
  'sleep_trend',
] as const
export type PatternName = (typeof PATTERN_NAMES)[number]

/** Human labels and units for texts. */
export const METRIC_LABELS: Record<MetricName, { label: string; unit: string; digits: number }> = {
  hrv_rmssd: { label: 'HRV', unit: ' ms', digits: 0 },
  sleep_score: { label: 'Sleep score', unit: '', digits: 0 },
  resting_hr: { label: 'Resting heart rate', unit: ' bpm', digits: 0 },
  training_load: { label: 'Training load', unit: '', digits: 0 },
  training_load_ratio: { label: 'Training load ratio', unit: '', digits: 2 },
}

/** Whether a higher value of the metric is better (null: neither, e.g. training load). */
export const HIGHER_IS_BETTER: Record<MetricName, boolean | null> = {
  hrv_rmssd: true,
  sleep_score: true,
  resting_hr: false,
  training_load: null,
  training_load_ratio: null,
}

export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name)
}

export function isPatternName(name: string): name is PatternName {
  return (PATTERN_NAMES as readonly string[]).includes(name)
}

/** One measured daily value. */
export interface DatedValue {
  date: string
  value: number
}

/** Daily series of every metric, each sorted by date ascending, one value per date. */
export type MetricSeries = Record<MetricName, DatedValue[]>

/** An empty series set. */
export function emptySeries(): MetricSeries {
  return {
    hrv_rmssd: [],
    sleep_score: [],
    resting_hr: [],
    training_load: [],
    training_load_ratio: [],
  }
}

/** Shifted dates already computed: the calculators ask for the same few dozen per request. */
const shiftedDates = new Map<string, string>()

/** ISO date shifted by a number of calendar days. */
export function shiftDate(isoDate: string, days: number): string {
  const key = `${isoDate}|${days}`
  let shifted = shiftedDates.get(key)
  if (shifted === undefined) {
    const d = new Date(`${isoDate}T00:00:00Z`)
    d.setUTCDate(d.getUTCDate() + days)
    shifted = d.toISOString().slice(0, 10)
    if (shiftedDates.size >= 4096) shiftedDates.clear()
    shiftedDates.set(key, shifted)
  }
  return shifted
}

/** Whole calendar days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/** Entries dated `from` … `to` inclusive (ISO dates compare as strings). */
export function between(series: readonly DatedValue[], from: string, to: string): DatedValue[] {
  return series.filter((p) => p.date >= from && p.date <= to)
}

/** Values of the `days` calendar days ending `today`: today-(days-1) … today. */
export function lastDays(series: readonly DatedValue[], today: string, days: number): number[] {
  return between(series, shiftDate(today, -(days - 1)), today).map((p) => p.value)
}

/** Latest entry dated within the `days` calendar days ending today, or null. */
export function latestWithin(series: readonly DatedValue[], today: string, days: number): DatedValue | null {
  const from = shiftDate(today, -(days - 1))
  for (let i = series.length - 1; i >= 0; i--) {
    const p = series[i]
    if (p.date > today) continue
    return p.date >= from ? p : null
  }
  return null
}

/** Number formatted with a fixed number of decimals, for texts. */
export function fmt(value: number, digits = 0): string {
  return value.toFixed(digits)
}

/** A metric value with its unit, for texts ("41 ms", "1.42"). */
export function fmtMetric(metric: MetricName, value: number): string {
  const m = METRIC_LABELS[metric]
  return `${fmt(value, m.digits)}${m.unit}`
}

/** A p-value for texts: three decimals, or "< 0.001". */
export function fmtP(p: number): string {
  return p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`
}

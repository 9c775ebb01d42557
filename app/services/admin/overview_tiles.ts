import { checkValue, type BaselineLike } from '#services/analytics/anomaly_calculator'
import type { InsightBaseline } from '#services/analytics/insights_builder'
import { fmtMetric, METRIC_LABELS, type DatedValue, type MetricName } from '#services/analytics/metrics'

/** Where a value lies against the personal normal range (Q1–Q3 of the 90-day baseline). */
export type BandStatus = 'below' | 'within' | 'above'

/** The headline tiles of the overview, in display order. */
export const TILE_METRICS = ['sleep_score', 'hrv_rmssd', 'resting_hr', 'training_load_ratio'] as const
export type TileMetric = (typeof TILE_METRICS)[number]

const TILE_LABELS: Record<TileMetric, string> = {
  sleep_score: 'Sleep',
  hrv_rmssd: 'HRV',
  resting_hr: 'Resting heart rate',
  training_load_ratio: 'Training-load ratio',
}

/** Below this change (percent of the 30-day mean) a 7-day mean reads as flat, as the insights do. */
const FLAT_CHANGE_PERCENT = 5

/** One headline tile: the latest value, how it sits in the normal range and where it is heading. */
export interface OverviewTile {
  key: TileMetric
  label: string
  unit: string
  /** The latest value (rounded for display), or null when the last 30 days have none. */
  value: number | null
  /** The value with its unit, as shown ("48 ms", "1.12"). */
  display: string | null
  date: string | null
  /** A second line: sleep duration, Polar's cardio-load status. */
  detail: string | null
  band: {
    status: BandStatus
    q1: number
    q3: number
    /** "Within your usual 42–55 ms". */
    text: string
  } | null
  /** Set when the value lies beyond the anomaly fences of the baseline. */
  anomaly: 'warning' | 'critical' | null
  trend: {
    direction: 'up' | 'down' | 'flat'
    /** The insights' label: improving / declining / stable, or increasing / decreasing. */
    verdict: string
    changePercent: number
    /** "7-day average 48 ms vs 30-day 46 ms". */
    text: string
  } | null
  /** Why the band or trend is missing, in words. */
  note: string | null
}

export interface TileInputs {
  /** Latest dated value per metric within the last 30 days (null: none). */
  latest: Record<TileMetric, DatedValue | null>
  /** Stored baselines by metric (the ones the charts draw). */
  baselines: Map<MetricName, BaselineLike & { sampleCount: number }>
  /** The insights' fresh baseline entries, for the 7-day vs 30-day trend. */
  insightBaselines: Partial<Record<MetricName, InsightBaseline>>
  sleepSeconds: number | null
  cardioStatus: string | null
}

function fmtRange(metric: MetricName, q1: number, q3: number): string {
  const { digits, unit } = METRIC_LABELS[metric]
  return `${q1.toFixed(digits)}–${q3.toFixed(digits)}${unit}`
}

/** `27000` → "7 h 30 min asleep". */
export function sleepDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60)
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min asleep`
}

/** `PRODUCTIVE` → "Productive" (Polar's cardio-load status). */
function statusWords(status: string): string {
  const words = status.replace(/_/g, ' ').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function bandStatus(value: number, q1: number, q3: number): BandStatus {
  if (value < q1) return 'below'
  if (value > q3) return 'above'
  return 'within'
}

function tile(metric: TileMetric, inputs: TileInputs): OverviewTile {
  const { digits, unit } = METRIC_LABELS[metric]
  const latest = inputs.latest[metric]
  const base: OverviewTile = {
    key: metric,
    label: TILE_LABELS[metric],
    unit: unit.trim(),
    value: null,
    display: null,
    date: null,
    detail: null,
    band: null,
    anomaly: null,
    trend: null,
    note: null,
  }
  if (latest === null) return { ...base, note: 'No value in the last 30 days.' }

  const value = Number(latest.value.toFixed(digits))
  const out: OverviewTile = { ...base, value, display: fmtMetric(metric, latest.value), date: latest.date }
  if (metric === 'sleep_score' && inputs.sleepSeconds !== null) out.detail = sleepDuration(inputs.sleepSeconds)
  if (metric === 'training_load_ratio' && inputs.cardioStatus) out.detail = `Polar: ${statusWords(inputs.cardioStatus)}`

  const baseline = inputs.baselines.get(metric)
  if (baseline && baseline.status !== 'insufficient' && baseline.q1 !== null && baseline.q3 !== null) {
    const status = bandStatus(latest.value, baseline.q1, baseline.q3)
    const range = fmtRange(metric, baseline.q1, baseline.q3)
    const text = status === 'within' ? `Within your usual ${range}` : `${status === 'below' ? 'Below' : 'Above'} your usual ${range}`
    out.band = { status, q1: baseline.q1, q3: baseline.q3, text }
    out.anomaly = checkValue(latest.value, baseline).severity
  } else {
    out.note = baseline ? `Baseline still building (${baseline.sampleCount} of 7 days).` : 'No baseline yet.'
  }

  const insight = inputs.insightBaselines[metric]
  if (insight && insight.trend && insight.baseline7d !== null && insight.baseline30d !== null && insight.baseline30d !== 0) {
    const change = ((insight.baseline7d - insight.baseline30d) / insight.baseline30d) * 100
    out.trend = {
      direction: Math.abs(change) < FLAT_CHANGE_PERCENT ? 'flat' : change > 0 ? 'up' : 'down',
      verdict: insight.trend,
      changePercent: Math.round(change * 10) / 10,
      text: `7-day average ${fmtMetric(metric, insight.baseline7d)} vs 30-day ${fmtMetric(metric, insight.baseline30d)}`,
    }
  } else if (out.note === null) {
    out.note = 'Trend needs 3 values in 7 days and 15 in 30.'
  }
  return out
}

/** The four headline tiles from the latest values, the stored baselines and the insights' trends. */
export function buildTiles(inputs: TileInputs): OverviewTile[] {
  return TILE_METRICS.map((metric) => tile(metric, inputs))
}


import {
  between,
  latestWithin,
  fmtP,
  lastDays,
  shiftDate,
  type DatedValue,
  type MetricName,
  type MetricSeries,
  type PatternName,
} from '#services/analytics/metrics'
import { mean, round, significanceFromP, spearman, welchTTest } from '#services/analytics/stats'

/** Pattern significance (DESIGN §4): from a p-value, or insufficient. */
export type Significance = 'high' | 'medium' | 'low' | 'insufficient'
export type PatternType = 'correlation' | 'trend' | 'composite'
export type TrendDirection = 'improving' | 'declining' | 'stable'

/** A computed pattern, before it is stored. */
export interface PatternResult {
  patternType: PatternType
  patternName: PatternName
  score: number | null
  confidence: number
  significance: Significance
  metricsInvolved: MetricName[]
  sampleCount: number
  details: Record<string, unknown>
}

export const CORRELATION_MIN_PAIRS = 21
export const CORRELATION_WINDOW_DAYS = 90
export const TREND_MIN_7D = 3
export const TREND_MIN_30D = 15
export const STABLE_CHANGE_PERCENT = 5

/** The 7-day vs 30-day comparison behind hrv_trend, sleep_trend and overtraining_risk. */
export interface TrendStats {
  changePercent: number
  mean7d: number
  mean30d: number
  n7d: number
  n30d: number
  pValue: number | null
  tStatistic: number | null
  degreesOfFreedom: number | null
}

/**
 * (mean of the last 7 days − mean of the last 30 days) / mean of the last 30 days · 100, with
 * Welch's t-test of the last 7 days against days 8–30. Null below 3 values in 7 days or 15 in
 * 30 days, or when the 30-day mean is 0.
 */
export function trendStats(series: readonly DatedValue[], today: string): TrendStats | null {
  const last7 = lastDays(series, today, 7)
  const last30 = lastDays(series, today, 30)
  if (last7.length < TREND_MIN_7D || last30.length < TREND_MIN_30D) return null
  const mean7d = mean(last7)
  const mean30d = mean(last30)
  if (mean30d === 0) return null
  const prior = between(series, shiftDate(today, -29), shiftDate(today, -7)).map((p) => p.value)
  const welch = welchTTest(last7, prior)
  return {
    changePercent: ((mean7d - mean30d) / mean30d) * 100,
    mean7d,
    mean30d,
    n7d: last7.length,
    n30d: last30.length,
    pValue: welch?.pValue ?? null,
    tStatistic: welch?.t ?? null,
    degreesOfFreedom: welch?.df ?? null,
  }
}

/** Direction label of a change; a rise is improving unless `higherIsBetter` is false. */
export function trendDirection(changePercent: number, higherIsBetter = true): TrendDirection {
  if (Math.abs(changePercent) < STABLE_CHANGE_PERCENT) return 'stable'
  const rising = changePercent > 0
  return rising === higherIsBetter ? 'improving' : 'declining'
}

function signed(value: number, digits = 1) {
  const text = Math.abs(value).toFixed(digits)
  return `${value < 0 ? '-' : '+'}${text}`
}

function correlationStrength(rho: number) {
  const a = Math.abs(rho)
  if (a >= 0.7) return 'strong'
  if (a >= 0.4) return 'moderate'
  if (a >= 0.2) return 'weak'
  return 'negligible'
}

/**
 * sleep_hrv_correlation: Spearman ρ of same-night sleep score and HRV pairs in the 90 days
 * ending today; insufficient below 21 pairs or when either series is constant.
 */
export function sleepHrvCorrelation(series: MetricSeries, today: string): PatternResult {
  const from = shiftDate(today, -(CORRELATION_WINDOW_DAYS - 1))
  const hrvByDate = new Map(between(series.hrv_rmssd, from, today).map((p) => [p.date, p.value]))
  const sleep: number[] = []
  const hrv: number[] = []
  for (const p of between(series.sleep_score, from, today)) {
    const h = hrvByDate.get(p.date)
    if (h !== undefined) {
      sleep.push(p.value)
      hrv.push(h)
    }
  }
  const base = {
    patternType: 'correlation' as const,
    patternName: 'sleep_hrv_correlation' as const,
    metricsInvolved: ['sleep_score', 'hrv_rmssd'] as MetricName[],
    sampleCount: sleep.length,
  }
  const result = sleep.length >= CORRELATION_MIN_PAIRS ? spearman(sleep, hrv) : null
  if (result === null) {
    const reason =
      sleep.length < CORRELATION_MIN_PAIRS
        ? `${sleep.length} nights with both a sleep score and HRV in the last ${CORRELATION_WINDOW_DAYS} days; ${CORRELATION_MIN_PAIRS} are needed`
        : 'Sleep score or HRV did not vary over the window, so no rank correlation exists'
    return {
      ...base,
      score: null,
      confidence: 0,
      significance: 'insufficient',
      details: { correlation_coefficient: null, p_value: null, interpretation: null, reason },
    }
  }
  const strength = correlationStrength(result.rho)
  const direction = result.rho >= 0 ? 'positive' : 'negative'
  const significant = result.pValue < 0.05
  const tail = significant
    ? result.rho > 0
      ? 'Nights with better sleep tend to come with higher HRV.'
      : 'Better-scored nights tend to come with lower HRV, which is unusual.'
    : 'Not statistically significant (p ≥ 0.05).'
  const interpretation =
    `${strength[0].toUpperCase()}${strength.slice(1)} ${direction} correlation between sleep score and HRV ` +
    `(ρ = ${result.rho.toFixed(2)}, p ${fmtP(result.pValue)}, ${result.n} nights). ${tail}`
  return {
    ...base,
    score: result.rho,
    confidence: round(1 - result.pValue, 4),
    significance: significanceFromP(result.pValue),
    details: {
      correlation_coefficient: result.rho,
      p_value: result.pValue,
      interpretation,
      strength,
      direction,
    },
  }
}

const TREND_PATTERNS = {
  hrv_trend: { metric: 'hrv_rmssd', label: 'HRV', unit: ' ms', digits: 1 },
  sleep_trend: { metric: 'sleep_score', label: 'Sleep score', unit: '', digits: 1 },
} as const

/** hrv_trend / sleep_trend: 7-day vs 30-day mean with a Welch p-value (DESIGN §4). */
export function metricTrend(
  name: 'hrv_trend' | 'sleep_trend',
  series: MetricSeries,
  today: string
): PatternResult {
  const def = TREND_PATTERNS[name]
  const stats = trendStats(series[def.metric], today)
  const base = {
    patternType: 'trend' as const,
    patternName: name,
    metricsInvolved: [def.metric] as MetricName[],
    sampleCount: stats?.n30d ?? lastDays(series[def.metric], today, 30).length,
  }
  if (stats === null) {
    return {
      ...base,
      score: null,
      confidence: 0,
      significance: 'insufficient',
      details: {
        p_value: null,
        direction: null,
        interpretation: null,
        reason: `Needs at least ${TREND_MIN_7D} values in the last 7 days and ${TREND_MIN_30D} in the last 30 days`,
      },
    }
  }
  const direction = trendDirection(stats.changePercent)
  const change = round(stats.changePercent, 2)
  const interpretation =
    `${def.label} is ${direction}: 7-day mean ${stats.mean7d.toFixed(def.digits)}${def.unit} vs ` +
    `30-day mean ${stats.mean30d.toFixed(def.digits)}${def.unit} (${signed(stats.changePercent)}%)` +
    (stats.pValue === null ? '.' : `, Welch p ${fmtP(stats.pValue)}.`)
  return {
    ...base,
    score: change,
    confidence: stats.pValue === null ? 0 : round(1 - stats.pValue, 4),
    significance: stats.pValue === null ? 'insufficient' : significanceFromP(stats.pValue),
    details: {
      change_percent: change,
      mean_7d: stats.mean7d,
      mean_30d: stats.mean30d,
      values_7d: stats.n7d,
      values_30d: stats.n30d,
      p_value: stats.pValue,
      t_statistic: stats.tStatistic,
      degrees_of_freedom: stats.degreesOfFreedom,
      direction,
      interpretation,
      ...(stats.pValue === null ? { reason: 'No day-to-day variation, so the change cannot be tested' } : {}),
    },
  }
}

/** Points of one overtraining factor: 25 beyond the strong threshold, 15 beyond the mild one. */
function factorPoints(value: number, mild: number, strong: number, rising: boolean): 0 | 15 | 25 {
  if (rising ? value > strong : value < strong) return 25
  if (rising ? value > mild : value < mild) return 15
  return 0
}

function recommendationsFor(score: number, checked: number): string[] {
  if (checked < 2) {
    return ['Keep syncing: at least two of HRV, sleep, resting heart rate and training load ratio are needed']
  }
  if (score >= 75) {
    return [
      'Take a full rest day before the next hard session',
      'Prioritise 8–9 hours of sleep for the next nights',
      'Watch for persistent fatigue, soreness or mood changes',
    ]
  }
  if (score >= 50) {
    return [
      'Reduce training intensity for the next 2–3 days',
      'Replace one hard session with easy recovery activity',
      'Aim for 7–9 hours of sleep',
    ]
  }
  if (score >= 25) {
    return ['Monitor how you respond to the next hard session', 'Consider an extra recovery day this week']
  }
  return ['Training load appears manageable; continue while monitoring HRV and resting heart rate']
}

/**
 * overtraining_risk: 0–100 from four factors (HRV, sleep, resting-HR trends and the latest
 * training-load ratio within 7 days), each 0/15/25 points; insufficient below two factors.
 */
export function overtrainingRisk(series: MetricSeries, today: string): PatternResult {
  const riskFactors: string[] = []
  let score = 0
  let checked = 0
  let samples = 0
  const trends: Array<{ metric: MetricName; label: string; mild: number; strong: number; rising: boolean }> = [
    { metric: 'hrv_rmssd', label: 'HRV', mild: -5, strong: -10, rising: false },
    { metric: 'sleep_score', label: 'Sleep score', mild: -5, strong: -10, rising: false },
    { metric: 'resting_hr', label: 'Resting heart rate', mild: 2, strong: 5, rising: true },
  ]
  const factorValues: Record<string, number | null> = {}
  for (const f of trends) {
    const t = trendStats(series[f.metric], today)
    factorValues[`${f.metric}_change_percent`] = t === null ? null : round(t.changePercent, 2)
    if (t === null) continue
    checked++
    samples += t.n30d
    const points = factorPoints(t.changePercent, f.mild, f.strong, f.rising)
    score += points
    if (points > 0) {
      riskFactors.push(
        `${f.label} 7-day mean is ${Math.abs(t.changePercent).toFixed(1)}% ${t.changePercent < 0 ? 'below' : 'above'} its 30-day mean (+${points} points)`
      )
    }
  }
  const ratio = latestWithin(series.training_load_ratio, today, 7)
  factorValues.training_load_ratio = ratio?.value ?? null
  if (ratio !== null) {
    checked++
    samples++
    const points = factorPoints(ratio.value, 1.3, 1.5, true)
    score += points
    if (points > 0) {
      riskFactors.push(`Training load ratio is ${ratio.value.toFixed(2)} on ${ratio.date} (+${points} points)`)
    }
  }
  const significance: Significance =
    checked < 2 ? 'insufficient' : score >= 50 ? 'high' : score >= 25 ? 'medium' : 'low'
  return {
    patternType: 'composite',
    patternName: 'overtraining_risk',
    score,
    confidence: checked / 4,
    significance,
    metricsInvolved: ['hrv_rmssd', 'sleep_score', 'resting_hr', 'training_load_ratio'],
    sampleCount: samples,
    details: {
      risk_score: score,
      risk_factors: riskFactors,
      recommendations: recommendationsFor(score, checked),
      factors_checked: checked,
      factor_values: factorValues,
      p_value: null,
      interpretation:
        checked < 2
          ? `Only ${checked} of 4 risk factors have enough recent data`
          : `Overtraining risk ${score}/100 from ${checked} of 4 factors`,
    },
  }
}

/** All four patterns for a user's series, in PATTERN_NAMES order. */
export function computePatterns(series: MetricSeries, today: string): PatternResult[] {
  return [
    sleepHrvCorrelation(series, today),
    overtrainingRisk(series, today),
    metricTrend('hrv_trend', series, today),
    metricTrend('sleep_trend', series, today),
  ]
}

import { BASELINE_WINDOW_DAYS, computeBaseline, type BaselineResult } from '#services/analytics/baseline_calculator'
import { scanAnomalies, CURRENT_VALUE_DAYS, type AnomalyResult } from '#services/analytics/anomaly_calculator'
import { computePatterns, CORRELATION_WINDOW_DAYS, trendDirection, type PatternResult } from '#services/analytics/pattern_calculator'
import {
  featureAvailability,
  insightsStatus,
  nextUnlock,
  INSIGHTS_READY_DAYS,
  INSIGHTS_PARTIAL_DAYS,
  type FeatureAvailability,
  type InsightFeature,
} from '#services/analytics/feature_unlocks'
import {
  HIGHER_IS_BETTER,
  latestWithin,
  METRIC_NAMES,
  type DatedValue,
  type MetricName,
  type MetricSeries,
} from '#services/analytics/metrics'
import { buildObservations, type Observation } from '#services/analytics/observations'
import { buildSuggestions, type Suggestion } from '#services/analytics/suggestions'
import type { InsightContext } from '#services/analytics/insight_context'
import { round } from '#services/analytics/stats'

/** One entry of the insights `baselines` object. */
export interface InsightBaseline {
  current: number | null
  baseline: number
  percentOfBaseline: number | null
  trend: string | null
  status: BaselineResult['status']
  baseline7d: number | null
  baseline30d: number | null
}

/** The unified insights record before serialisation. */
export interface Insights {
  dataAgeDays: number
  latestDataDate: string | null
  status: 'ready' | 'partial' | 'unavailable'
  featureAvailability: Record<InsightFeature, FeatureAvailability>
  unlockProgress: ReturnType<typeof nextUnlock>
  currentMetrics: { hrv: number | null; sleepScore: number | null; restingHr: number | null; trainingLoadRatio: number | null }
  baselines: Partial<Record<MetricName, InsightBaseline>>
  patterns: PatternResult[]
  anomalies: AnomalyResult[]
  observations: Observation[]
  suggestions: Suggestion[]
}

/**
 * Direction-aware trend label of a baseline: 7-day vs 30-day mean, ±5 % is stable; for resting
 * heart rate a rise is declining; training load is increasing/decreasing (neither good nor bad).
 */
export function baselineTrend(metric: MetricName, b: BaselineResult): string | null {
  if (b.baseline7d === null || b.baseline30d === null || b.baseline30d === 0) return null
  const change = ((b.baseline7d - b.baseline30d) / b.baseline30d) * 100
  const better = HIGHER_IS_BETTER[metric]
  if (better === null) {
    if (Math.abs(change) < 5) return 'stable'
    return change > 0 ? 'increasing' : 'decreasing'
  }
  return trendDirection(change, better)
}

/**
 * The longest look-back of any calculator the insights use (baselines over 90 days, the sleep–HRV
 * correlation over 90 days; trends, current values and anomalies look back less): series of
 * these last days give the same insights as the whole history.
 */
export const INSIGHTS_WINDOW_DAYS = Math.max(BASELINE_WINDOW_DAYS, CORRELATION_WINDOW_DAYS)

/** Days with sleep or recharge data up to today, over all history, and the latest of them. */
export interface DataHistory {
  days: number
  latest: string | null
}

/**
 * Builds the insights record from a user's series of the last INSIGHTS_WINDOW_DAYS days (DESIGN
 * §4): data age is the number of distinct days with sleep or recharge data (`history`); baselines
 * from 7 days; patterns and anomalies from 21 days. Pure: `today` is passed in.
 */
export function buildInsights(series: MetricSeries, history: DataHistory, today: string): Insights {
  const age = history.days
  const latestDataDate = history.latest
  const current = {} as Record<MetricName, DatedValue | null>
  for (const m of METRIC_NAMES) current[m] = latestWithin(series[m], today, CURRENT_VALUE_DAYS)

  const baselines: Partial<Record<MetricName, BaselineResult>> = {}
  if (age >= INSIGHTS_PARTIAL_DAYS) {
    for (const m of METRIC_NAMES) {
      const b = computeBaseline(m, series[m], today)
      if (b) baselines[m] = b
    }
  }
  const patterns = age >= INSIGHTS_READY_DAYS ? computePatterns(series, today) : []
  const anomalies = age >= INSIGHTS_READY_DAYS ? scanAnomalies(Object.values(baselines), series, today) : []
  const ctx: InsightContext = { today, age, baselines, current, patterns, anomalies }

  const baselineEntries: Partial<Record<MetricName, InsightBaseline>> = {}
  for (const m of METRIC_NAMES) {
    const b = baselines[m]
    if (!b) continue
    const cur = current[m]?.value ?? null
    baselineEntries[m] = {
      current: cur,
      baseline: b.baselineValue,
      percentOfBaseline: cur === null || b.baselineValue === 0 ? null : round((cur / b.baselineValue) * 100, 1),
      trend: baselineTrend(m, b),
      status: b.status,
      baseline7d: b.baseline7d,
      baseline30d: b.baseline30d,
    }
  }

  return {
    dataAgeDays: age,
    latestDataDate,
    status: insightsStatus(age),
    featureAvailability: featureAvailability(age),
    unlockProgress: nextUnlock(age),
    currentMetrics: {
      hrv: current.hrv_rmssd?.value ?? null,
      sleepScore: current.sleep_score?.value ?? null,
      restingHr: current.resting_hr?.value ?? null,
      trainingLoadRatio: current.training_load_ratio?.value ?? null,
    },
    baselines: baselineEntries,
    patterns,
    anomalies,
    observations: buildObservations(ctx),
    suggestions: buildSuggestions(ctx),
  }
}

import type { BaselineResult } from '#services/analytics/baseline_calculator'
import type { AnomalyResult } from '#services/analytics/anomaly_calculator'
import type { PatternResult } from '#services/analytics/pattern_calculator'
import { fmtMetric, type DatedValue, type MetricName, type PatternName } from '#services/analytics/metrics'

/**
 * Everything the observation and suggestion generators read: fresh baselines, patterns and
 * anomalies of one user plus the current values (dated within 7 days). Patterns and anomalies
 * are empty before 21 days of data (DESIGN §4).
 */
export interface InsightContext {
  today: string
  age: number
  baselines: Partial<Record<MetricName, BaselineResult>>
  current: Record<MetricName, DatedValue | null>
  patterns: PatternResult[]
  anomalies: AnomalyResult[]
}

/** A current value set against the user's baseline. */
export interface BaselineComparison {
  metric: MetricName
  current: number
  reference: number
  referenceLabel: string
  percent: number
  status: BaselineResult['status']
}

/**
 * The current value as a percentage of the 30-day baseline when it exists, else of the 90-day
 * window mean; null without a usable (≥ partial) baseline, a current value or a non-zero reference.
 */
export function compareToBaseline(ctx: InsightContext, metric: MetricName): BaselineComparison | null {
  const b = ctx.baselines[metric]
  const current = ctx.current[metric]
  if (!b || b.status === 'insufficient' || current === null) return null
  const reference = b.baseline30d ?? b.baselineValue
  if (reference === 0) return null
  return {
    metric,
    current: current.value,
    reference,
    referenceLabel: b.baseline30d !== null ? '30-day baseline' : `${b.sampleCount}-night baseline`,
    percent: (current.value / reference) * 100,
    status: b.status,
  }
}

/** "18% below your 30-day baseline (41 ms vs 50 ms)". */
export function describeComparison(c: BaselineComparison): string {
  const diff = Math.round(Math.abs(c.percent - 100))
  const side = c.percent < 100 ? 'below' : 'above'
  return `${diff}% ${side} your ${c.referenceLabel} (${fmtMetric(c.metric, c.current)} vs ${fmtMetric(c.metric, c.reference)})`
}

export function findPattern(ctx: InsightContext, name: PatternName): PatternResult | null {
  const p = ctx.patterns.find((x) => x.patternName === name)
  return p && p.significance !== 'insufficient' ? p : null
}

/** Confidence of a baseline-driven statement: firmer with a ready baseline. */
export function baselineConfidence(c: BaselineComparison): number {
  return c.status === 'ready' ? 0.85 : 0.6
}

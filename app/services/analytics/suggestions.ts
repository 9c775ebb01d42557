import {
  baselineConfidence,
  compareToBaseline,
  describeComparison,
  findPattern,
  type InsightContext,
} from '#services/analytics/insight_context'
import { fmtMetric, METRIC_LABELS } from '#services/analytics/metrics'
import { INSIGHTS_PARTIAL_DAYS } from '#services/analytics/feature_unlocks'
import { round } from '#services/analytics/stats'

/** One actionable suggestion of the insights record. */
export interface Suggestion {
  action: string
  description: string
  confidence: number
  reason: string
}

/**
 * Suggestions derived from the same baselines, anomalies and patterns as the observations;
 * most pressing first. `train_normally` only when nothing else calls for a change.
 */
export function buildSuggestions(ctx: InsightContext): Suggestion[] {
  const out: Suggestion[] = []
  if (ctx.age < INSIGHTS_PARTIAL_DAYS) {
    out.push({
      action: 'keep_syncing',
      description: 'Wear your device overnight and sync daily so personal baselines can be built.',
      confidence: 0.95,
      reason: `${ctx.age} of ${INSIGHTS_PARTIAL_DAYS} days of sleep or recharge data collected`,
    })
  }
  const critical = ctx.anomalies.find((a) => a.severity === 'critical')
  if (critical) {
    out.push({
      action: 'monitor_closely',
      description: 'Check how you feel today and re-measure tomorrow before any hard effort.',
      confidence: 0.9,
      reason: `${METRIC_LABELS[critical.metricName].label} is far ${critical.direction} its normal range (${fmtMetric(critical.metricName, critical.currentValue)} on ${critical.currentDate})`,
    })
  }
  const risk = findPattern(ctx, 'overtraining_risk')
  const riskFactors = (risk?.details.risk_factors as string[] | undefined) ?? []
  if (risk && risk.score !== null && risk.score >= 50) {
    out.push({
      action: 'rest_day',
      description: 'Take a rest day or very light activity only, and prioritise sleep.',
      confidence: round(Math.min(risk.score / 100, 0.95), 2),
      reason: `Overtraining risk ${risk.score}/100: ${riskFactors.join('; ')}`,
    })
  } else if (risk && risk.score !== null && risk.score >= 25) {
    out.push({
      action: 'reduce_intensity',
      description: 'Keep the next 2–3 sessions easy and avoid stacking hard days.',
      confidence: round(Math.min(risk.score / 100, 0.8), 2),
      reason: `Overtraining risk ${risk.score}/100: ${riskFactors.join('; ')}`,
    })
  }
  const hrv = compareToBaseline(ctx, 'hrv_rmssd')
  if (hrv && hrv.percent < 85) {
    out.push({
      action: 'prioritize_recovery',
      description: 'Favour easy aerobic work, hydration and an early night until HRV returns to baseline.',
      confidence: baselineConfidence(hrv),
      reason: `HRV is ${describeComparison(hrv)}`,
    })
  }
  const sleep = compareToBaseline(ctx, 'sleep_score')
  if (sleep && sleep.percent < 85) {
    out.push({
      action: 'improve_sleep',
      description: 'Go to bed 30–60 minutes earlier and keep a regular wake time for the next few nights.',
      confidence: baselineConfidence(sleep),
      reason: `Sleep score is ${describeComparison(sleep)}`,
    })
  }
  const ratio = ctx.current.training_load_ratio
  if (ratio !== null && ratio.value < 0.8) {
    out.push({
      action: 'increase_load_gradually',
      description: 'Add volume step by step (about 10% per week) to stop losing fitness.',
      confidence: 0.6,
      reason: `Training load ratio is ${ratio.value.toFixed(2)} (below 0.8) on ${ratio.date}`,
    })
  }
  if (out.length === 0 && hrv && hrv.percent >= 95) {
    out.push({
      action: 'train_normally',
      description: 'Recovery markers are at or above your baseline: follow your planned training.',
      confidence: baselineConfidence(hrv),
      reason: `HRV is at ${Math.round(hrv.percent)}% of your ${hrv.referenceLabel} (${fmtMetric('hrv_rmssd', hrv.current)} vs ${fmtMetric('hrv_rmssd', hrv.reference)}) and no risk factor is raised`,
    })
  }
  return out
}

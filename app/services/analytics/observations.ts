import {
  compareToBaseline,
  describeComparison,
  findPattern,
  type InsightContext,
} from '#services/analytics/insight_context'
import { fmt, fmtMetric, fmtP, METRIC_LABELS } from '#services/analytics/metrics'
import { INSIGHTS_PARTIAL_DAYS, INSIGHTS_READY_DAYS } from '#services/analytics/feature_unlocks'

export const OBSERVATION_CATEGORIES = ['recovery', 'sleep', 'training', 'anomaly', 'onboarding', 'trend'] as const
export const OBSERVATION_PRIORITIES = ['critical', 'high', 'medium', 'low', 'info', 'positive'] as const
export type ObservationCategory = (typeof OBSERVATION_CATEGORIES)[number]
export type ObservationPriority = (typeof OBSERVATION_PRIORITIES)[number]

/** One plain-language observation of the insights record. */
export interface Observation {
  category: ObservationCategory
  priority: ObservationPriority
  fact: string
  context: string
  trend: string | null
}

const FULL_BASELINE_DAYS = 30

function days(n: number) {
  return `${n} day${n === 1 ? '' : 's'}`
}

function onboarding(ctx: InsightContext): Observation[] {
  const { age } = ctx
  if (age < INSIGHTS_PARTIAL_DAYS) {
    return [
      {
        category: 'onboarding',
        priority: 'info',
        fact: `Building your personal baselines (${age}/${INSIGHTS_PARTIAL_DAYS} days of data)`,
        context: `Keep wearing your device overnight and syncing. 7-day baselines unlock in ${days(INSIGHTS_PARTIAL_DAYS - age)}, pattern and anomaly detection in ${days(INSIGHTS_READY_DAYS - age)}.`,
        trend: null,
      },
    ]
  }
  if (age < INSIGHTS_READY_DAYS) {
    return [
      {
        category: 'onboarding',
        priority: 'info',
        fact: `Your baselines are being established (${age} days of data)`,
        context: `Pattern and anomaly detection unlock in ${days(INSIGHTS_READY_DAYS - age)}; until then values are compared with a partial baseline.`,
        trend: null,
      },
    ]
  }
  if (age < FULL_BASELINE_DAYS) {
    return [
      {
        category: 'onboarding',
        priority: 'low',
        fact: `Pattern and anomaly detection are active (${age} days of data)`,
        context: `Full 30-day baselines unlock in ${days(FULL_BASELINE_DAYS - age)}.`,
        trend: null,
      },
    ]
  }
  return []
}

function anomalies(ctx: InsightContext): Observation[] {
  return ctx.anomalies.map((a) => {
    const label = METRIC_LABELS[a.metricName].label
    const far = a.severity === 'critical' ? 'far ' : ''
    const deviation =
      a.deviationPercent === null ? '' : ` (${a.deviationPercent > 0 ? '+' : ''}${a.deviationPercent}%)`
    return {
      category: 'anomaly',
      priority: a.severity === 'critical' ? 'critical' : 'high',
      fact: `${label} is ${far}${a.direction} your normal range: ${fmtMetric(a.metricName, a.currentValue)} on ${a.currentDate}`,
      context: `Normal range ${fmt(a.lowerBound, METRIC_LABELS[a.metricName].digits)}–${fmtMetric(a.metricName, a.upperBound)}; 90-day baseline ${fmtMetric(a.metricName, a.baselineValue)}${deviation}.`,
      trend: 'anomalous',
    }
  })
}

function recovery(ctx: InsightContext): Observation[] {
  const out: Observation[] = []
  const hrv = compareToBaseline(ctx, 'hrv_rmssd')
  if (hrv && hrv.percent < 85) {
    out.push({
      category: 'recovery',
      priority: 'high',
      fact: `HRV is ${describeComparison(hrv)}`,
      context: 'A drop this large usually means incomplete recovery: hard training, stress, illness, alcohol or short sleep.',
      trend: 'declining',
    })
  } else if (hrv && hrv.percent < 95) {
    out.push({
      category: 'recovery',
      priority: 'medium',
      fact: `HRV is ${describeComparison(hrv)}`,
      context: 'Slightly suppressed; a second low night would point to accumulating fatigue.',
      trend: 'declining',
    })
  } else if (hrv && hrv.percent > 110) {
    out.push({
      category: 'recovery',
      priority: 'positive',
      fact: `HRV is ${describeComparison(hrv)}`,
      context: 'Your autonomic recovery is strong: a good day for quality training.',
      trend: 'improving',
    })
  }
  const rhr = compareToBaseline(ctx, 'resting_hr')
  if (rhr && rhr.percent > 105) {
    out.push({
      category: 'recovery',
      priority: 'medium',
      fact: `Resting heart rate is ${describeComparison(rhr)}`,
      context: 'An elevated overnight heart rate often precedes illness or follows heavy load and late meals.',
      trend: 'declining',
    })
  } else if (rhr && rhr.percent < 95) {
    out.push({
      category: 'recovery',
      priority: 'positive',
      fact: `Resting heart rate is ${describeComparison(rhr)}`,
      context: 'A lower overnight heart rate is a sign of good recovery and improving fitness.',
      trend: 'improving',
    })
  }
  const corr = findPattern(ctx, 'sleep_hrv_correlation')
  if (corr && corr.score !== null && corr.significance !== 'low') {
    const together = corr.score > 0 ? 'rise and fall together' : 'move in opposite directions'
    out.push({
      category: 'recovery',
      priority: 'info',
      fact: `Your sleep score and HRV ${together} (ρ = ${corr.score.toFixed(2)} over ${corr.sampleCount} nights)`,
      context: `Spearman p ${fmtP(Number(corr.details.p_value))}: ${
        corr.score > 0 ? 'protecting your sleep is likely to protect your recovery.' : 'worth a closer look.'
      }`,
      trend: null,
    })
  }
  return out
}

function sleep(ctx: InsightContext): Observation[] {
  const s = compareToBaseline(ctx, 'sleep_score')
  if (!s) return []
  const fact = `Sleep score ${s.current.toFixed(0)} is ${describeComparison(s).replace(/ \(.*\)$/, '')} of ${s.reference.toFixed(0)}`
  if (s.percent < 85) {
    return [
      {
        category: 'sleep',
        priority: 'medium',
        fact,
        context: `Latest night ${ctx.current.sleep_score!.date}; short or fragmented sleep lowers next-day HRV and readiness.`,
        trend: 'declining',
      },
    ]
  }
  if (s.percent < 95) {
    return [
      {
        category: 'sleep',
        priority: 'low',
        fact,
        context: `Latest night ${ctx.current.sleep_score!.date}; a little under your usual, no action needed yet.`,
        trend: 'stable',
      },
    ]
  }
  if (s.percent >= 110) {
    return [
      {
        category: 'sleep',
        priority: 'positive',
        fact,
        context: `Latest night ${ctx.current.sleep_score!.date}; well above your usual sleep quality.`,
        trend: 'improving',
      },
    ]
  }
  return []
}

function training(ctx: InsightContext): Observation[] {
  const out: Observation[] = []
  const risk = findPattern(ctx, 'overtraining_risk')
  if (risk && risk.score !== null) {
    const factors = (risk.details.risk_factors as string[]) ?? []
    const checked = Number(risk.details.factors_checked)
    if (risk.score >= 50) {
      out.push({
        category: 'training',
        priority: 'high',
        fact: `Overtraining risk is elevated (${risk.score}/100)`,
        context: factors.join('; '),
        trend: 'declining',
      })
    } else if (risk.score >= 25) {
      out.push({
        category: 'training',
        priority: 'medium',
        fact: `Moderate overtraining indicators detected (${risk.score}/100)`,
        context: factors.join('; '),
        trend: 'stable',
      })
    } else {
      out.push({
        category: 'training',
        priority: 'positive',
        fact: `Training and recovery are in balance (overtraining risk ${risk.score}/100)`,
        context: `${checked} of 4 risk factors checked; none beyond its threshold.`,
        trend: 'stable',
      })
    }
  }
  const ratio = ctx.current.training_load_ratio
  if (ratio !== null && ratio.value < 0.8) {
    out.push({
      category: 'training',
      priority: 'low',
      fact: `Training load ratio is ${ratio.value.toFixed(2)} on ${ratio.date}: recent load is below your usual level`,
      context: 'A ratio under 0.8 for weeks leads to detraining; build back up by about 10% per week.',
      trend: 'declining',
    })
  }
  return out
}

function trends(ctx: InsightContext): Observation[] {
  const out: Observation[] = []
  for (const name of ['hrv_trend', 'sleep_trend'] as const) {
    const p = findPattern(ctx, name)
    if (!p) continue
    const direction = String(p.details.direction)
    const pValue = Number(p.details.p_value)
    const significant = p.significance === 'high' || p.significance === 'medium'
    const priority =
      direction === 'improving' ? 'positive' : direction === 'stable' ? 'info' : significant ? 'medium' : 'low'
    const label = name === 'hrv_trend' ? 'HRV' : 'Sleep score'
    const unit = name === 'hrv_trend' ? ' ms' : ''
    const change = Number(p.details.change_percent)
    out.push({
      category: 'trend',
      priority,
      fact:
        `${label} is ${direction}: 7-day mean ${Number(p.details.mean_7d).toFixed(1)}${unit} vs ` +
        `30-day mean ${Number(p.details.mean_30d).toFixed(1)}${unit} (${change > 0 ? '+' : ''}${change.toFixed(1)}%)`,
      context: significant
        ? `Welch p ${fmtP(pValue)}: the last 7 days differ significantly from days 8–30.`
        : `Welch p ${fmtP(pValue)}: the difference may be day-to-day noise.`,
      trend: direction,
    })
  }
  return out
}

/** Observations sorted by priority (critical first, positive last); stable within a priority. */
export function buildObservations(ctx: InsightContext): Observation[] {
  const all = [...onboarding(ctx), ...anomalies(ctx), ...recovery(ctx), ...sleep(ctx), ...training(ctx), ...trends(ctx)]
  const rank = (p: ObservationPriority) => OBSERVATION_PRIORITIES.indexOf(p)
  return all
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o.priority) - rank(b.o.priority) || a.i - b.i)
    .map(({ o }) => o)
}

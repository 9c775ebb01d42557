import { BaseTransformer } from '@adonisjs/core/transformers'
import type { UserInsights } from '#services/analytics/insights_service'
import AnomalyTransformer from '#transformers/anomaly_transformer'

/** Spec "Unified insights record"; `data_freshness` is absent for a user without data. */
export default class InsightsTransformer extends BaseTransformer<UserInsights> {
  toObject() {
    const i = this.resource
    return {
      user_id: i.userId,
      generated_at: i.generatedAt,
      ...(i.dataFreshness === null ? {} : { data_freshness: i.dataFreshness }),
      data_age_days: i.dataAgeDays,
      status: i.status,
      feature_availability: Object.fromEntries(
        Object.entries(i.featureAvailability).map(([key, f]) => [
          key,
          {
            available: f.available,
            message: f.message,
            ...(f.unlockAtDays === undefined ? {} : { unlock_at_days: f.unlockAtDays }),
          },
        ])
      ),
      unlock_progress: {
        next_unlock: i.unlockProgress.nextUnlock,
        days_until_next: i.unlockProgress.daysUntilNext,
        percent_to_next: i.unlockProgress.percentToNext,
      },
      current_metrics: {
        hrv: i.currentMetrics.hrv,
        sleep_score: i.currentMetrics.sleepScore,
        resting_hr: i.currentMetrics.restingHr,
        training_load_ratio: i.currentMetrics.trainingLoadRatio,
      },
      baselines: Object.fromEntries(
        Object.entries(i.baselines).map(([metric, b]) => [
          metric,
          {
            current: b.current,
            baseline: b.baseline,
            percent_of_baseline: b.percentOfBaseline,
            trend: b.trend,
            status: b.status,
            baseline_7d: b.baseline7d,
            baseline_30d: b.baseline30d,
          },
        ])
      ),
      patterns: i.patterns.map((p) => ({
        name: p.patternName,
        pattern_type: p.patternType,
        score: p.score,
        significance: p.significance,
        factors: (p.details.risk_factors as string[] | undefined) ?? [],
        interpretation: (p.details.interpretation as string | null | undefined) ?? null,
      })),
      anomalies: i.anomalies.map((a) => new AnomalyTransformer(a).toObject()),
      observations: i.observations.map((o) => ({
        category: o.category,
        priority: o.priority,
        fact: o.fact,
        context: o.context,
        trend: o.trend,
      })),
      suggestions: i.suggestions.map((s) => ({
        action: s.action,
        description: s.description,
        confidence: s.confidence,
        reason: s.reason,
      })),
    }
  }
}

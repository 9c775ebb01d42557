import { BaseTransformer } from '@adonisjs/core/transformers'
import type { DateTime } from 'luxon'
import type { TodayView } from '#services/analytics/today_service'
import AnomalyTransformer from '#transformers/anomaly_transformer'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import NightlyRechargeTransformer from '#transformers/nightly_recharge_transformer'
import ActivityRecordTransformer from '#transformers/activity_record_transformer'

const iso = (value: DateTime | null) => (value ? value.toUTC().toISO({ suppressMilliseconds: true }) : null)

/**
 * GET /users/{user_id}/today: the records use the list shapes (sleep, recharge, activity records),
 * anomalies the bulk-scan element, the observation and suggestion their insights shapes.
 */
export default class TodayTransformer extends BaseTransformer<TodayView> {
  toObject() {
    const t = this.resource
    const newestDates = Object.values(t.newestData).filter((date): date is string => date !== null)
    return {
      user_id: t.userId,
      date: t.date,
      generated_at: t.generatedAt,
      status: t.status,
      sleep: t.sleep ? new SleepRecordTransformer(t.sleep).toObject() : null,
      recharge: t.recharge ? new NightlyRechargeTransformer(t.recharge).toObject() : null,
      activity: t.activity ? new ActivityRecordTransformer(t.activity).toObject() : null,
      current_metrics: {
        hrv: t.currentMetrics.hrv,
        sleep_score: t.currentMetrics.sleepScore,
        resting_hr: t.currentMetrics.restingHr,
        training_load_ratio: t.currentMetrics.trainingLoadRatio,
      },
      baselines: Object.fromEntries(
        Object.entries(t.baselines).map(([metric, b]) => [
          metric,
          { status: b.status, current: b.current, baseline: b.baseline, percent_of_baseline: b.percentOfBaseline, trend: b.trend },
        ])
      ),
      anomalies: t.anomalies.map((a) => new AnomalyTransformer(a).toObject()),
      top_observation: t.topObservation
        ? {
            category: t.topObservation.category,
            priority: t.topObservation.priority,
            fact: t.topObservation.fact,
            context: t.topObservation.context,
            trend: t.topObservation.trend,
          }
        : null,
      top_suggestion: t.topSuggestion
        ? {
            action: t.topSuggestion.action,
            description: t.topSuggestion.description,
            confidence: t.topSuggestion.confidence,
            reason: t.topSuggestion.reason,
          }
        : null,
      freshness: {
        last_synced_at: iso(t.lastSyncedAt),
        last_sync: t.lastSync
          ? { run_id: t.lastSync.id, status: t.lastSync.status, started_at: iso(t.lastSync.startedAt), finished_at: iso(t.lastSync.finishedAt) }
          : null,
        newest_data_date: newestDates.length > 0 ? newestDates.sort()[newestDates.length - 1] : null,
        newest_data: t.newestData,
      },
    }
  }
}

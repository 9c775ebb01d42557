import { BaseTransformer } from '@adonisjs/core/transformers'
import type { AnalyticsStatus } from '#services/analytics/analytics_status_service'

/** Spec "Analytics status record". */
export default class AnalyticsStatusTransformer extends BaseTransformer<AnalyticsStatus> {
  toObject() {
    const s = this.resource
    return {
      user_id: s.userId,
      data_days: s.dataDays,
      min_data_days: s.minDataDays,
      features_available: s.featuresAvailable,
      unlock_progress: Object.fromEntries(
        Object.entries(s.unlockProgress).map(([key, p]) => [
          key,
          {
            unlocked: p.unlocked,
            days_required: p.daysRequired,
            days_remaining: p.daysRemaining,
            progress_percent: p.progressPercent,
          },
        ])
      ),
      recommendations: s.recommendations,
    }
  }
}

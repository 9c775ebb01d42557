import { BaseTransformer } from '@adonisjs/core/transformers'
import type { BaselineStatus } from '#services/analytics/baseline_calculator'

/** POST /baselines/calculate: metric name → status of each baseline stored. */
export default class BaselineCalculationTransformer extends BaseTransformer<{
  userId: string
  statuses: Record<string, BaselineStatus>
}> {
  toObject() {
    return { user_id: this.resource.userId, baselines_calculated: this.resource.statuses }
  }
}

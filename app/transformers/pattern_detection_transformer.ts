import { BaseTransformer } from '@adonisjs/core/transformers'
import type { Significance } from '#services/analytics/pattern_calculator'

/** POST /patterns/detect: pattern name → significance. */
export default class PatternDetectionTransformer extends BaseTransformer<{
  userId: string
  significances: Record<string, Significance>
}> {
  toObject() {
    return { user_id: this.resource.userId, patterns_detected: this.resource.significances }
  }
}

import { BaseTransformer } from '@adonisjs/core/transformers'
import type { StoredPattern } from '#services/analytics/analytics_store'

/** Spec "Pattern record"; `details` keys vary by pattern and always include `p_value`. */
export default class PatternTransformer extends BaseTransformer<StoredPattern> {
  toObject() {
    const p = this.resource
    return {
      pattern_type: p.patternType,
      pattern_name: p.patternName,
      score: p.score,
      confidence: p.confidence,
      significance: p.significance,
      metrics_involved: p.metricsInvolved,
      sample_count: p.sampleCount,
      details: p.details,
      analyzed_at: p.analyzedAt,
    }
  }
}

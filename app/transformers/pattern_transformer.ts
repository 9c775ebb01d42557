import { BaseTransformer } from '@adonisjs/core/transformers'
import type Pattern from '#models/pattern'

/** Spec "Pattern record"; `details` keys vary by pattern and always include `p_value`. */
export default class PatternTransformer extends BaseTransformer<Pattern> {
  toObject() {
    const p = this.resource
    return {
      pattern_type: p.patternType,
      pattern_name: p.patternName,
      score: p.score,
      confidence: p.confidence ?? 0,
      significance: p.significance,
      metrics_involved: JSON.parse(p.metricsInvolved),
      sample_count: p.sampleCount,
      details: JSON.parse(p.details),
      analyzed_at: p.analyzedAt.toUTC().toISO(),
    }
  }
}

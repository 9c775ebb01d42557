import { BaseTransformer } from '@adonisjs/core/transformers'
import type { AnomalyResult } from '#services/analytics/anomaly_calculator'
import AnomalyTransformer from '#transformers/anomaly_transformer'

/** GET /anomalies: `{user_id, anomaly_count, anomalies}`. */
export default class AnomalyScanTransformer extends BaseTransformer<{ userId: string; anomalies: AnomalyResult[] }> {
  toObject() {
    const { userId, anomalies } = this.resource
    return {
      user_id: userId,
      anomaly_count: anomalies.length,
      anomalies: anomalies.map((a) => new AnomalyTransformer(a).toObject()),
    }
  }
}

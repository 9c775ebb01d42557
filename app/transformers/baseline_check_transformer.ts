import { BaseTransformer } from '@adonisjs/core/transformers'
import type { BaselineCheck } from '#services/analytics/baseline_service'

/** Spec "Anomaly check result"; `severity` is null when the value is not an anomaly. */
export default class BaselineCheckTransformer extends BaseTransformer<BaselineCheck> {
  toObject() {
    const c = this.resource
    return {
      value: c.value,
      metric_name: c.baseline.metricName,
      is_anomaly: c.isAnomaly,
      severity: c.severity,
      baseline: c.baseline.baselineValue,
      baseline_7d: c.baseline.baseline7D,
      lower_bound: c.baseline.lowerBound,
      upper_bound: c.baseline.upperBound,
      status: c.baseline.status,
    }
  }
}

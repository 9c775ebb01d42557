import { BaseTransformer } from '@adonisjs/core/transformers'
import type { AnomalyResult } from '#services/analytics/anomaly_calculator'

/** Spec "Anomaly (bulk scan element)" plus the `date` of the value checked. */
export default class AnomalyTransformer extends BaseTransformer<AnomalyResult> {
  toObject() {
    const a = this.resource
    return {
      metric_name: a.metricName,
      date: a.currentDate,
      current_value: a.currentValue,
      baseline_value: a.baselineValue,
      lower_bound: a.lowerBound,
      upper_bound: a.upperBound,
      severity: a.severity,
      direction: a.direction,
      deviation_percent: a.deviationPercent,
    }
  }
}

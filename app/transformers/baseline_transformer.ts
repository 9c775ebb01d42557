import { BaseTransformer } from '@adonisjs/core/transformers'
import type { StoredBaseline } from '#services/analytics/analytics_store'

/** Spec "Baseline record". Quartiles, IQR, SD and bounds are null while status is insufficient. */
export default class BaselineTransformer extends BaseTransformer<StoredBaseline> {
  toObject() {
    const b = this.resource
    return {
      metric_name: b.metricName,
      baseline_value: b.baselineValue,
      baseline_7d: b.baseline7d,
      baseline_30d: b.baseline30d,
      baseline_90d: b.baseline90d,
      median: b.median,
      q1: b.q1,
      q3: b.q3,
      iqr: b.iqr,
      std_dev: b.stdDev,
      min: b.min,
      max: b.max,
      lower_bound: b.lowerBound,
      upper_bound: b.upperBound,
      sample_count: b.sampleCount,
      status: b.status,
      data_start_date: b.dataStartDate,
      data_end_date: b.dataEndDate,
      calculated_at: b.calculatedAt,
    }
  }
}

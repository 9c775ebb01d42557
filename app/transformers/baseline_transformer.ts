import { BaseTransformer } from '@adonisjs/core/transformers'
import type Baseline from '#models/baseline'

/** Spec "Baseline record". Quartiles, IQR, SD and bounds are null while status is insufficient. */
export default class BaselineTransformer extends BaseTransformer<Baseline> {
  toObject() {
    const b = this.resource
    return {
      metric_name: b.metricName,
      baseline_value: b.baselineValue,
      baseline_7d: b.baseline7D,
      baseline_30d: b.baseline30D,
      baseline_90d: b.baseline90D,
      median: b.medianValue,
      q1: b.q1,
      q3: b.q3,
      iqr: b.iqr,
      std_dev: b.stdDev,
      min: b.minValue,
      max: b.maxValue,
      lower_bound: b.lowerBound,
      upper_bound: b.upperBound,
      sample_count: b.sampleCount,
      status: b.status,
      data_start_date: b.dataStartDate,
      data_end_date: b.dataEndDate,
      calculated_at: b.calculatedAt.toUTC().toISO(),
    }
  }
}

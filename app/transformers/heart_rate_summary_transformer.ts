import { BaseTransformer } from '@adonisjs/core/transformers'
import type HeartRateDay from '#models/heart_rate_day'
import { toInteger } from '#services/records/units'

/** Spec "Heart rate daily summary": min/avg/max of the day's samples > 0, integers. */
export default class HeartRateSummaryTransformer extends BaseTransformer<HeartRateDay> {
  toObject() {
    const day = this.resource
    return {
      date: day.date,
      hr_min: toInteger(day.hrMin),
      hr_avg: toInteger(day.hrAvg),
      hr_max: toInteger(day.hrMax),
      sample_count: toInteger(day.sampleCount) ?? 0,
    }
  }
}

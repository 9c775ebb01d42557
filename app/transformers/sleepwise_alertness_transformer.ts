import { BaseTransformer } from '@adonisjs/core/transformers'
import type SleepwiseAlertness from '#models/sleepwise_alertness'

/** Spec "Sleep alertness record": local period times, grade and its classification. */
export default class SleepwiseAlertnessTransformer extends BaseTransformer<SleepwiseAlertness> {
  toObject() {
    const period = this.resource
    return {
      period_start_time: period.periodStartTime,
      period_end_time: period.periodEndTime,
      grade: period.grade,
      grade_classification: period.gradeClassification,
    }
  }
}

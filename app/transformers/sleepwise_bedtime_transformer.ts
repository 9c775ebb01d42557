import { BaseTransformer } from '@adonisjs/core/transformers'
import type SleepwiseBedtime from '#models/sleepwise_bedtime'
import { clockTime } from '#services/records/units'

/** Spec "Bedtime recommendation record": period times in full, recommendations as local `HH:MM:SS`. */
export default class SleepwiseBedtimeTransformer extends BaseTransformer<SleepwiseBedtime> {
  toObject() {
    const period = this.resource
    return {
      period_start_time: period.periodStartTime,
      period_end_time: period.periodEndTime,
      preferred_sleep_start: clockTime(period.preferredSleepStartTime),
      preferred_sleep_end: clockTime(period.preferredSleepEndTime),
      sleep_gate_start: clockTime(period.sleepGateStartTime),
      sleep_gate_end: clockTime(period.sleepGateEndTime),
      quality: period.quality,
    }
  }
}

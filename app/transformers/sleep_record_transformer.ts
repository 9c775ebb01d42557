import { BaseTransformer } from '@adonisjs/core/transformers'
import type { SleepListRecord, SleepNight } from '#services/records/sleep_service'
import { hoursFromSeconds, toInteger, totalSleepSeconds } from '#services/records/units'

/** Spec "Sleep record" (from a plain row or a model): stage hours 2 dp, total = light + deep + REM, HRV from the night's recharge. */
export default class SleepRecordTransformer extends BaseTransformer<SleepNight<SleepListRecord>> {
  toObject() {
    const { record, recharge } = this.resource
    return {
      date: record.date,
      sleep_score: toInteger(record.sleepScore),
      total_sleep_hours: hoursFromSeconds(
        totalSleepSeconds(record.lightSleepSeconds, record.deepSleepSeconds, record.remSleepSeconds)
      ),
      deep_sleep_hours: hoursFromSeconds(record.deepSleepSeconds),
      rem_sleep_hours: hoursFromSeconds(record.remSleepSeconds),
      light_sleep_hours: hoursFromSeconds(record.lightSleepSeconds),
      hrv_avg: recharge?.hrvAvg ?? null,
      heart_rate_avg: toInteger(record.heartRateAvg),
    }
  }
}

import { BaseTransformer } from '@adonisjs/core/transformers'
import type { SleepNight } from '#services/records/sleep_service'

const hours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 3600) * 100) / 100)

/** Spec "Sleep record": stage hours 2 dp, total = light + deep + REM, HRV from the night's recharge. */
export default class SleepRecordTransformer extends BaseTransformer<SleepNight> {
  toObject() {
    const { record, recharge } = this.resource
    const stages = [record.lightSleepSeconds, record.deepSleepSeconds, record.remSleepSeconds]
    const total = stages.every((value) => value === null)
      ? null
      : stages.reduce<number>((sum, value) => sum + (value ?? 0), 0)
    return {
      date: record.date,
      sleep_score: record.sleepScore,
      total_sleep_hours: hours(total),
      deep_sleep_hours: hours(record.deepSleepSeconds),
      rem_sleep_hours: hours(record.remSleepSeconds),
      light_sleep_hours: hours(record.lightSleepSeconds),
      hrv_avg: recharge?.hrvAvg ?? null,
      heart_rate_avg: record.heartRateAvg,
    }
  }
}

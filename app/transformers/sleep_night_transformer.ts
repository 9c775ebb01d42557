import { BaseTransformer } from '@adonisjs/core/transformers'
import type { SleepNight } from '#services/records/sleep_service'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import { parseJson, totalSleepSeconds } from '#services/records/units'

type Sample = Record<string, unknown>

/**
 * The sleep night of `GET /sleep/{date}`: the list record plus stage
 * seconds, interruptions, continuity, scores, local start/end with UTC
 * offsets, the hypnogram and the heart-rate samples.
 */
export default class SleepNightTransformer extends BaseTransformer<SleepNight> {
  toObject() {
    const { record, recharge } = this.resource
    const hypnogram = parseJson<Sample[]>(record.hypnogram)
    const heartRate = parseJson<Sample[]>(record.heartRateSamples)
    return {
      ...new SleepRecordTransformer(this.resource).toObject(),
      breathing_rate_avg: recharge?.breathingRateAvg ?? null,
      sleep_start_time: record.sleepStartTime,
      sleep_end_time: record.sleepEndTime,
      sleep_start_offset_minutes: record.sleepStartOffsetMinutes,
      sleep_end_offset_minutes: record.sleepEndOffsetMinutes,
      device_id: record.deviceId,
      total_sleep_seconds: totalSleepSeconds(record.lightSleepSeconds, record.deepSleepSeconds, record.remSleepSeconds),
      light_sleep_seconds: record.lightSleepSeconds,
      deep_sleep_seconds: record.deepSleepSeconds,
      rem_sleep_seconds: record.remSleepSeconds,
      unrecognized_sleep_seconds: record.unrecognizedSleepSeconds,
      total_interruption_seconds: record.totalInterruptionSeconds,
      short_interruption_seconds: record.shortInterruptionSeconds,
      long_interruption_seconds: record.longInterruptionSeconds,
      continuity: record.continuity,
      continuity_class: record.continuityClass,
      sleep_charge: record.sleepCharge,
      sleep_goal_seconds: record.sleepGoalSeconds,
      sleep_rating: record.sleepRating,
      sleep_cycles: record.sleepCycles,
      group_duration_score: record.groupDurationScore,
      group_solidity_score: record.groupSolidityScore,
      group_regeneration_score: record.groupRegenerationScore,
      heart_rate_min: record.heartRateMin,
      heart_rate_max: record.heartRateMax,
      hypnogram: Array.isArray(hypnogram)
        ? hypnogram.map((point) => ({ time: point.time ?? null, stage: point.stage ?? null }))
        : null,
      heart_rate_samples: Array.isArray(heartRate)
        ? heartRate.map((sample) => ({ time: sample.time ?? null, heart_rate: sample.heart_rate ?? null }))
        : null,
    }
  }
}

import { BaseTransformer } from '@adonisjs/core/transformers'
import type PhysicalInfo from '#models/physical_info'
import type { PhysicalInfoHistory } from '#services/records/physical_info_service'

/** One version of the physical settings; a setting never made is null. */
function physicalInfoRecord(info: PhysicalInfo) {
  return {
    measured_at: info.measuredAt,
    date: info.date,
    weight_kg: info.weightKg,
    height_cm: info.heightCm,
    vo2_max: info.vo2Max,
    max_heart_rate: info.maxHeartRate,
    resting_heart_rate: info.restingHeartRate,
    aerobic_threshold: info.aerobicThreshold,
    anaerobic_threshold: info.anaerobicThreshold,
    sleep_goal: info.sleepGoal,
    sleep_goal_minutes: info.sleepGoalMinutes,
    weight_source: info.weightSource,
    training_background: info.trainingBackground,
    typical_day: info.typicalDay,
    gender: info.gender,
    birthday: info.birthday,
  }
}

/** GET /physical-info: `{latest, history}`, history newest first. */
export default class PhysicalInfoTransformer extends BaseTransformer<PhysicalInfoHistory> {
  toObject() {
    const { latest, history } = this.resource
    return { latest: latest ? physicalInfoRecord(latest) : null, history: history.map(physicalInfoRecord) }
  }
}

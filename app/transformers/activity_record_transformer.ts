import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ActivityListRecord } from '#services/records/activity_service'
import { kmFromMeters, minutesFromSeconds, toInteger } from '#services/records/units'

/** Spec "Activity record": km 2 dp, active minutes 1 dp, activity score = Polar daily_activity rounded. */
export default class ActivityRecordTransformer extends BaseTransformer<ActivityListRecord> {
  toObject() {
    const day = this.resource
    return {
      date: day.date,
      steps: toInteger(day.steps),
      calories_active: toInteger(day.caloriesActive),
      calories_total: toInteger(day.caloriesTotal),
      distance_km: kmFromMeters(day.distanceMeters),
      active_minutes: minutesFromSeconds(day.activeDurationSeconds),
      activity_score: toInteger(day.dailyActivity),
    }
  }
}

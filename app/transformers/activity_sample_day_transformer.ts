import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ActivitySampleDay } from '#services/records/activity_samples_service'

/** One day of activity samples: steps per minute, zone periods, inactivity stamps. */
export default class ActivitySampleDayTransformer extends BaseTransformer<ActivitySampleDay> {
  toObject() {
    const day = this.resource
    return {
      date: day.date,
      interval_ms: day.intervalMs,
      total_steps: day.totalSteps,
      steps_per_minute: day.stepsPerMinute,
      activity_zones:
        day.zones?.map((zone) => ({
          start: zone.start,
          end: zone.end,
          zone: zone.zone,
          duration_seconds: zone.durationSeconds,
        })) ?? null,
      inactivity_stamps: day.inactivityStamps,
    }
  }
}

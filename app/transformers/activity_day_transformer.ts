import { BaseTransformer } from '@adonisjs/core/transformers'
import type DailyActivity from '#models/daily_activity'
import ActivityRecordTransformer from '#transformers/activity_record_transformer'
import { parseJson } from '#services/records/units'

type Sample = Record<string, unknown>

/**
 * The activity day of `GET /activity/{date}`: the list record plus raw
 * metres and seconds, Polar's daily-activity percentage, inactivity
 * alerts, step samples and activity-zone changes.
 */
export default class ActivityDayTransformer extends BaseTransformer<DailyActivity> {
  toObject() {
    const day = this.resource
    const steps = parseJson<{ interval_ms?: number; total_steps?: number; samples?: Sample[] }>(day.stepSamples)
    const zones = parseJson<Sample[]>(day.activityZones)
    return {
      ...new ActivityRecordTransformer(day).toObject(),
      start_time: day.startTime,
      end_time: day.endTime,
      distance_meters: day.distanceMeters,
      active_duration_seconds: day.activeDurationSeconds,
      inactive_duration_seconds: day.inactiveDurationSeconds,
      daily_activity_percent: day.dailyActivity,
      inactivity_alert_count: day.inactivityAlertCount,
      step_samples:
        steps && typeof steps === 'object'
          ? {
              interval_ms: steps.interval_ms ?? null,
              total_steps: steps.total_steps ?? null,
              samples: (Array.isArray(steps.samples) ? steps.samples : []).map((sample) => ({
                time: sample.time ?? null,
                steps: sample.steps ?? null,
              })),
            }
          : null,
      activity_zones: Array.isArray(zones)
        ? zones.map((zone) => ({ time: zone.time ?? null, zone: zone.zone ?? null }))
        : null,
    }
  }
}

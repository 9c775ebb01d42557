import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ExerciseStreams } from '#services/records/exercise_track'
import { sampleTypeInfo } from '#services/records/exercise_track'
import type { ExerciseWithStreams } from '#services/records/exercise_sample_service'

/**
 * `GET /exercises/{id}/samples`: every sample stream as the wire had it (type id, name, unit,
 * recording rate in seconds, values with null gaps; RR intervals have no rate), the heart-rate
 * zones with Polar's index (0- or 1-based, as sent) and the number of route points.
 */
export default class ExerciseSamplesTransformer extends BaseTransformer<ExerciseWithStreams & { streams: ExerciseStreams }> {
  toObject() {
    const { exercise, streams, startUtc } = this.resource
    return {
      id: Number(exercise.id),
      polar_exercise_id: exercise.polarExerciseId,
      start_time: exercise.startTime,
      start_time_utc_offset_minutes: exercise.startTimeUtcOffset,
      start_time_utc: startUtc,
      samples: streams.samples.map((series) => {
        const info = sampleTypeInfo(series.sample_type)
        return {
          sample_type: series.sample_type,
          name: info?.name ?? null,
          unit: info?.unit ?? null,
          recording_rate_seconds: series.recording_rate_seconds,
          sample_count: series.data.length,
          data: series.data,
        }
      }),
      heart_rate_zones: streams.zones.map((zone) => ({
        index: zone.index,
        lower_limit_bpm: zone.lower_limit,
        upper_limit_bpm: zone.upper_limit,
        in_zone_seconds: zone.in_zone_seconds,
      })),
      route_point_count: streams.route?.latitude.length ?? 0,
    }
  }
}

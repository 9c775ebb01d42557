import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ExerciseRoute } from '#services/records/exercise_sample_service'

/**
 * `GET /exercises/{id}/route` as an RFC 7946 GeoJSON Feature: a LineString of `[lon, lat]`, or
 * `[lon, lat, altitude]` when every point has an altitude sample (a Point for a one-point route),
 * with the point times (UTC, null where Polar gave none), offsets and heart rates in `properties`.
 */
export default class ExerciseRouteTransformer extends BaseTransformer<ExerciseRoute> {
  toObject() {
    const { exercise, startUtc, points } = this.resource
    const withAltitude = points.every((point) => point.altitude !== null)
    const coordinates = points.map((point) =>
      withAltitude ? [point.longitude!, point.latitude!, point.altitude!] : [point.longitude!, point.latitude!]
    )
    return {
      type: 'Feature',
      geometry:
        coordinates.length === 1 ? { type: 'Point', coordinates: coordinates[0] } : { type: 'LineString', coordinates },
      properties: {
        id: Number(exercise.id),
        polar_exercise_id: exercise.polarExerciseId,
        sport: exercise.sport,
        detailed_sport_info: exercise.detailedSportInfo,
        start_time: exercise.startTime,
        start_time_utc: startUtc,
        point_count: points.length,
        times: points.map((point) => point.time),
        time_offsets_seconds: points.map((point) => point.offsetSeconds),
        heart_rates: points.map((point) => point.heartRate),
      },
    }
  }
}

import { BaseTransformer } from '@adonisjs/core/transformers'
import type Exercise from '#models/exercise'
import ExerciseRecordTransformer from '#transformers/exercise_record_transformer'
import { parseJson, toBoolean } from '#services/records/units'

type Json = Record<string, unknown>

const TRAINING_LOAD_PRO_KEYS = [
  'date',
  'cardio_load',
  'muscle_load',
  'perceived_load',
  'cardio_load_interpretation',
  'muscle_load_interpretation',
  'perceived_load_interpretation',
  'user_rpe',
] as const

/**
 * The session of `GET /exercises/{id}`: the list record plus raw seconds
 * and metres, device, detailed sport, running index, macronutrient split,
 * heart-rate zones and Training Load Pro.
 */
export default class ExerciseDetailTransformer extends BaseTransformer<Exercise> {
  toObject() {
    const exercise = this.resource
    const zones = parseJson<Json[]>(exercise.heartRateZones)
    const loadPro = parseJson<Json>(exercise.trainingLoadPro)
    return {
      ...new ExerciseRecordTransformer(exercise).toObject(),
      start_time_utc_offset_minutes: exercise.startTimeUtcOffset,
      upload_time: exercise.uploadTime,
      device: exercise.device,
      device_id: exercise.deviceId,
      detailed_sport_info: exercise.detailedSportInfo,
      duration_seconds: exercise.durationSeconds,
      distance_meters: exercise.distanceMeters,
      running_index: exercise.runningIndex,
      fat_percentage: exercise.fatPercentage,
      carbohydrate_percentage: exercise.carbohydratePercentage,
      protein_percentage: exercise.proteinPercentage,
      has_route: toBoolean(exercise.hasRoute),
      heart_rate_zones: Array.isArray(zones)
        ? zones.map((zone) => ({
            index: zone.index ?? null,
            lower_limit_bpm: zone.lower_limit ?? zone.lower_limit_bpm ?? null,
            upper_limit_bpm: zone.upper_limit ?? zone.upper_limit_bpm ?? null,
            in_zone_seconds: zone.in_zone_seconds ?? null,
          }))
        : null,
      training_load_pro:
        loadPro && typeof loadPro === 'object' && !Array.isArray(loadPro)
          ? Object.fromEntries(TRAINING_LOAD_PRO_KEYS.map((key) => [key, loadPro[key] ?? null]))
          : null,
    }
  }
}

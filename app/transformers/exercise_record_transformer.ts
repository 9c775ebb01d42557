import { BaseTransformer } from '@adonisjs/core/transformers'
import type Exercise from '#models/exercise'
import { kmFromMeters, minutesFromSeconds, toInteger } from '#services/records/units'

/** Spec "Exercise record": our integer id, Polar's id, local start time, minutes 1 dp, km 2 dp. */
export default class ExerciseRecordTransformer extends BaseTransformer<Exercise> {
  toObject() {
    const exercise = this.resource
    return {
      id: Number(exercise.id),
      polar_exercise_id: exercise.polarExerciseId,
      start_time: exercise.startTime,
      sport: exercise.sport,
      duration_minutes: minutesFromSeconds(exercise.durationSeconds),
      distance_km: kmFromMeters(exercise.distanceMeters),
      calories: toInteger(exercise.calories),
      average_heart_rate: toInteger(exercise.averageHeartRate),
      max_heart_rate: toInteger(exercise.maxHeartRate),
      training_load: exercise.trainingLoad,
    }
  }
}

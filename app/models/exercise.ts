import { ExerciseSchema } from '#database/schema'

/** A training session; `id` is ours, `polarExerciseId` is Polar's hashed id. */
export default class Exercise extends ExerciseSchema {
  static table = 'exercises'
}

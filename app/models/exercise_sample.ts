import { ExerciseSampleSchema } from '#database/schema'

/**
 * Sample streams, heart-rate zones and GPS route of one exercise (Polar's hashed id), as JSON
 * text; see `#services/polar/mappers/exercise_samples_mapper` for the stored shapes.
 */
export default class ExerciseSample extends ExerciseSampleSchema {
  static table = 'exercise_samples'
}

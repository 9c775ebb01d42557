import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ExerciseSampleService } from '#services/records/exercise_sample_service'
import ExerciseSamplesTransformer from '#transformers/exercise_samples_transformer'
import { showExerciseValidator } from '#validators/records'

@inject()
export default class ExerciseSamplesController {
  constructor(protected samples: ExerciseSampleService) {}

  /** Sample streams and heart-rate zones of one exercise (our id); 404 when none are stored. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showExerciseValidator)
    return serialize(ExerciseSamplesTransformer.transform(await this.samples.samples(params.user_id, params.id)))
  }
}

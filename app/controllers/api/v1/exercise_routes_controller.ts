import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ExerciseSampleService } from '#services/records/exercise_sample_service'
import ExerciseRouteTransformer from '#transformers/exercise_route_transformer'
import { showExerciseValidator } from '#validators/records'

@inject()
export default class ExerciseRoutesController {
  constructor(protected samples: ExerciseSampleService) {}

  /** The GPS route of one exercise as a GeoJSON Feature; 404 when it has none. */
  async show({ request, response, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showExerciseValidator)
    const route = await this.samples.route(params.user_id, params.id)
    response.header('Content-Type', 'application/geo+json; charset=utf-8')
    return serialize(ExerciseRouteTransformer.transform(route))
  }
}

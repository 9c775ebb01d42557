import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { ExerciseService } from '#services/records/exercise_service'
import ExerciseRecordTransformer from '#transformers/exercise_record_transformer'
import ExerciseDetailTransformer from '#transformers/exercise_detail_transformer'
import { listRecordsValidator, showExerciseValidator } from '#validators/records'

@inject()
export default class ExercisesController {
  constructor(protected exercises: ExerciseService) {}

  /** Sessions started in the window (`days`, default 30, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listRecordsValidator)
    const list = await this.exercises.list(params.user_id, listRequest(query, 30))
    pageHeaders(ctx, list)
    return ctx.serialize(ExerciseRecordTransformer.transform(list.rows))
  }

  /** One session by our integer id, with zones and Training Load Pro; 404 when none. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showExerciseValidator)
    const session = await this.exercises.findById(params.user_id, params.id)
    return serialize(ExerciseDetailTransformer.transform(session))
  }
}

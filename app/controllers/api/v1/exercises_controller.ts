import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ExerciseService } from '#services/records/exercise_service'
import ExerciseRecordTransformer from '#transformers/exercise_record_transformer'
import ExerciseDetailTransformer from '#transformers/exercise_detail_transformer'
import { listRecordsValidator, showExerciseValidator } from '#validators/records'

@inject()
export default class ExercisesController {
  constructor(protected exercises: ExerciseService) {}

  /** Sessions started in the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    const sessions = await this.exercises.listRecent(params.user_id, days)
    return serialize(ExerciseRecordTransformer.transform(sessions))
  }

  /** One session by our integer id, with zones and Training Load Pro; 404 when none. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showExerciseValidator)
    const session = await this.exercises.findById(params.user_id, params.id)
    return serialize(ExerciseDetailTransformer.transform(session))
  }
}

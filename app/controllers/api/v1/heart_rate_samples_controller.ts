import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { HeartRateSamplesService } from '#services/records/heart_rate_samples_service'
import HeartRateSamplesTransformer from '#transformers/heart_rate_samples_transformer'
import { showHeartRateSamplesValidator } from '#validators/heart_rate'

@inject()
export default class HeartRateSamplesController {
  constructor(protected heartRate: HeartRateSamplesService) {}

  /** The continuous heart-rate samples of one day; 404 when no day is stored. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showHeartRateSamplesValidator)
    return serialize(HeartRateSamplesTransformer.transform(await this.heartRate.forDate(params.user_id, params.date)))
  }
}

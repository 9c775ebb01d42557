import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DailySeriesService } from '#services/records/daily_series_service'
import CardioLoadTransformer from '#transformers/cardio_load_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class CardioLoadController {
  constructor(protected series: DailySeriesService) {}

  /** Cardio load of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    return serialize(CardioLoadTransformer.transform(await this.series.cardioLoad(params.user_id, days)))
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DailySeriesService } from '#services/records/daily_series_service'
import HeartRateSummaryTransformer from '#transformers/heart_rate_summary_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class HeartRateController {
  constructor(protected series: DailySeriesService) {}

  /** Daily heart-rate summaries of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    return serialize(HeartRateSummaryTransformer.transform(await this.series.heartRate(params.user_id, days)))
  }
}

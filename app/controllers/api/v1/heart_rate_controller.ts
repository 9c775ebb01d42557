import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { DailySeriesService } from '#services/records/daily_series_service'
import HeartRateSummaryTransformer from '#transformers/heart_rate_summary_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class HeartRateController {
  constructor(protected series: DailySeriesService) {}

  /** Daily heart-rate summaries of the window (`days`, default 30, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listRecordsValidator)
    const list = await this.series.listHeartRate(params.user_id, listRequest(query, 30))
    pageHeaders(ctx, list)
    return ctx.serialize(HeartRateSummaryTransformer.transform(list.rows))
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { ActivitySamplesService } from '#services/records/activity_samples_service'
import ActivitySampleDayTransformer from '#transformers/activity_sample_day_transformer'
import { listActivitySamplesValidator, showActivitySamplesValidator } from '#validators/activity_samples'

@inject()
export default class ActivitySamplesController {
  constructor(protected samples: ActivitySamplesService) {}

  /** Activity samples of the window (`days` 1–30, default 7, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listActivitySamplesValidator)
    const list = await this.samples.list(params.user_id, listRequest(query, 7))
    pageHeaders(ctx, list)
    return ctx.serialize(ActivitySampleDayTransformer.transform(list.rows))
  }

  /** One day's activity samples; 404 when none are stored. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showActivitySamplesValidator)
    return serialize(ActivitySampleDayTransformer.transform(await this.samples.findByDate(params.user_id, params.date)))
  }
}

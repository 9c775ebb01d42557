import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { ActivityService } from '#services/records/activity_service'
import ActivityRecordTransformer from '#transformers/activity_record_transformer'
import ActivityDayTransformer from '#transformers/activity_day_transformer'
import { listRecordsValidator, showActivityValidator } from '#validators/records'

@inject()
export default class ActivityController {
  constructor(protected activity: ActivityService) {}

  /** Daily activity of the window (`days`, default 30, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listRecordsValidator)
    const list = await this.activity.list(params.user_id, listRequest(query, 30))
    pageHeaders(ctx, list)
    return ctx.serialize(ActivityRecordTransformer.transform(list.rows))
  }

  /** One day by its date, in raw units with samples and zones; 404 when none. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showActivityValidator)
    const day = await this.activity.findByDate(params.user_id, params.date)
    return serialize(ActivityDayTransformer.transform(day))
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { plainObjects, sendJson, sendJsonText } from '#services/api/json_body'
import { listRequest } from '#services/records/record_list'
import { SleepService } from '#services/records/sleep_service'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import SleepNightTransformer from '#transformers/sleep_night_transformer'
import { listSleepValidator, showSleepValidator } from '#validators/sleep'

@inject()
export default class SleepController {
  constructor(protected sleep: SleepService) {}

  /** Sleep records of the window (`days`, default 7, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listSleepValidator)
    const request = listRequest(query, 7)
    // The whole window (no page asked for): the nights' rendered lines, joined.
    if (!request.page) return sendJsonText(ctx.response, await this.sleep.listText(params.user_id, request.window))
    const list = await this.sleep.list(params.user_id, request)
    pageHeaders(ctx, list)
    sendJson(ctx.response, plainObjects(SleepRecordTransformer, list.rows))
  }

  /** One night by its date, with stages, hypnogram and heart-rate samples; 404 when none. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showSleepValidator)
    const night = await this.sleep.findByDate(params.user_id, params.date)
    return serialize(SleepNightTransformer.transform(night))
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { SleepwiseService } from '#services/records/sleepwise_service'
import SleepwiseAlertnessTransformer from '#transformers/sleepwise_alertness_transformer'
import { listSleepwiseValidator } from '#validators/records'

@inject()
export default class SleepwiseAlertnessController {
  constructor(protected sleepwise: SleepwiseService) {}

  /** Alertness periods of the window (`days` 1–30, default 7, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listSleepwiseValidator)
    const list = await this.sleepwise.listAlertness(params.user_id, listRequest(query, 7))
    pageHeaders(ctx, list)
    return ctx.serialize(SleepwiseAlertnessTransformer.transform(list.rows))
  }
}

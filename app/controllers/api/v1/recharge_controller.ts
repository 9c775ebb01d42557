import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { RechargeService } from '#services/records/recharge_service'
import NightlyRechargeTransformer from '#transformers/nightly_recharge_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class RechargeController {
  constructor(protected recharge: RechargeService) {}

  /** Nightly Recharge of the window (`days`, default 30, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listRecordsValidator)
    const list = await this.recharge.list(params.user_id, listRequest(query, 30))
    pageHeaders(ctx, list)
    return ctx.serialize(NightlyRechargeTransformer.transform(list.rows))
  }
}

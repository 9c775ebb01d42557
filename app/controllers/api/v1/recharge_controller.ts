import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { RechargeService } from '#services/records/recharge_service'
import NightlyRechargeTransformer from '#transformers/nightly_recharge_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class RechargeController {
  constructor(protected recharge: RechargeService) {}

  /** Nightly Recharge of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    const nights = await this.recharge.listRecent(params.user_id, days)
    return serialize(NightlyRechargeTransformer.transform(nights))
  }
}

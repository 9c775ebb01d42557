import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SleepwiseService } from '#services/records/sleepwise_service'
import SleepwiseBedtimeTransformer from '#transformers/sleepwise_bedtime_transformer'
import { listSleepwiseValidator } from '#validators/records'

@inject()
export default class SleepwiseBedtimeController {
  constructor(protected sleepwise: SleepwiseService) {}

  /** Bedtime recommendations of the last `days` calendar days (1–30, default 7), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 7 } = await request.validateUsing(listSleepwiseValidator)
    return serialize(SleepwiseBedtimeTransformer.transform(await this.sleepwise.bedtime(params.user_id, days)))
  }
}

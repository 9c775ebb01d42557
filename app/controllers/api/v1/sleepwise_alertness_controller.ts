import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SleepwiseService } from '#services/records/sleepwise_service'
import SleepwiseAlertnessTransformer from '#transformers/sleepwise_alertness_transformer'
import { listSleepwiseValidator } from '#validators/records'

@inject()
export default class SleepwiseAlertnessController {
  constructor(protected sleepwise: SleepwiseService) {}

  /** Alertness periods of the last `days` calendar days (1–30, default 7), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 7 } = await request.validateUsing(listSleepwiseValidator)
    return serialize(SleepwiseAlertnessTransformer.transform(await this.sleepwise.alertness(params.user_id, days)))
  }
}

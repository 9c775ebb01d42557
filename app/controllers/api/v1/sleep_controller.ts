import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SleepService } from '#services/records/sleep_service'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import { listSleepValidator } from '#validators/sleep'

@inject()
export default class SleepController {
  constructor(protected sleep: SleepService) {}

  /** Sleep records of the last `days` calendar days (default 7), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 7 } = await request.validateUsing(listSleepValidator)
    const nights = await this.sleep.listRecent(params.user_id, days)
    return serialize(SleepRecordTransformer.transform(nights))
  }
}

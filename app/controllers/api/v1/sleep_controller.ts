import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SleepService } from '#services/records/sleep_service'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import SleepNightTransformer from '#transformers/sleep_night_transformer'
import { listSleepValidator, showSleepValidator } from '#validators/sleep'

@inject()
export default class SleepController {
  constructor(protected sleep: SleepService) {}

  /** Sleep records of the last `days` calendar days (default 7), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 7 } = await request.validateUsing(listSleepValidator)
    const nights = await this.sleep.listRecent(params.user_id, days)
    return serialize(SleepRecordTransformer.transform(nights))
  }

  /** One night by its date, with stages, hypnogram and heart-rate samples; 404 when none. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showSleepValidator)
    const night = await this.sleep.findByDate(params.user_id, params.date)
    return serialize(SleepNightTransformer.transform(night))
  }
}

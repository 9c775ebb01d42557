import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ActivitySamplesService } from '#services/records/activity_samples_service'
import ActivitySampleDayTransformer from '#transformers/activity_sample_day_transformer'
import { listActivitySamplesValidator, showActivitySamplesValidator } from '#validators/activity_samples'

@inject()
export default class ActivitySamplesController {
  constructor(protected samples: ActivitySamplesService) {}

  /** Activity samples of the last `days` calendar days (default 7, at most 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 7 } = await request.validateUsing(listActivitySamplesValidator)
    return serialize(ActivitySampleDayTransformer.transform(await this.samples.listRecent(params.user_id, days)))
  }

  /** One day's activity samples; 404 when none are stored. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showActivitySamplesValidator)
    return serialize(ActivitySampleDayTransformer.transform(await this.samples.findByDate(params.user_id, params.date)))
  }
}

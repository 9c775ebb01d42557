import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { TodayService } from '#services/analytics/today_service'
import TodayTransformer from '#transformers/today_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class TodayController {
  constructor(protected today: TodayService) {}

  /** The compact today view: last night, today's activity, current values against baselines, what to look at. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    return serialize(TodayTransformer.transform(await this.today.today(params.user_id)))
  }
}

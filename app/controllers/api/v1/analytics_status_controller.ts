import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AnalyticsStatusService } from '#services/analytics/analytics_status_service'
import AnalyticsStatusTransformer from '#transformers/analytics_status_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class AnalyticsStatusController {
  constructor(protected statuses: AnalyticsStatusService) {}

  /** Days of data per source and the features they unlock. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    return serialize(AnalyticsStatusTransformer.transform(await this.statuses.status(params.user_id)))
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { InsightsService } from '#services/analytics/insights_service'
import InsightsTransformer from '#transformers/insights_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class InsightsController {
  constructor(protected insights: InsightsService) {}

  /** The unified insights record. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    return serialize(InsightsTransformer.transform(await this.insights.insights(params.user_id)))
  }
}

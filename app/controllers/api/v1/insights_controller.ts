import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { sendJson } from '#services/api/json_body'
import { InsightsService } from '#services/analytics/insights_service'
import InsightsTransformer from '#transformers/insights_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class InsightsController {
  constructor(protected insights: InsightsService) {}

  /**
   * The unified insights record. The transformer is flat (plain values, its anomalies built by
   * AnomalyTransformer's own toObject), so its object is sent as it is: `Transformer.transform`
   * captures a stack trace per call for its error reports.
   */
  async show({ request, response }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    sendJson(response, new InsightsTransformer(await this.insights.insights(params.user_id)).toObject())
  }
}

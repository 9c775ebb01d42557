import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { sendJsonText } from '#services/api/json_body'
import { InsightsService } from '#services/analytics/insights_service'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class InsightsController {
  constructor(protected insights: InsightsService) {}

  /** The unified insights record, as InsightsService renders and keeps it. */
  async show({ request, response }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    sendJsonText(response, await this.insights.insightsJson(params.user_id))
  }
}

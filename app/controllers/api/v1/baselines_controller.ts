import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BaselineService } from '#services/analytics/baseline_service'
import BaselineTransformer from '#transformers/baseline_transformer'
import { showBaselineValidator, userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class BaselinesController {
  constructor(protected baselines: BaselineService) {}

  /** Stored baselines of the user, in metric order. */
  async index({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    return serialize(BaselineTransformer.transform(await this.baselines.list(params.user_id)))
  }

  /** One baseline; 404 for an unknown metric name (valid names listed) or none stored yet. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showBaselineValidator)
    return serialize(BaselineTransformer.transform(await this.baselines.show(params.user_id, params.metric_name)))
  }
}

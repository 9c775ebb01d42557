import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BaselineService } from '#services/analytics/baseline_service'
import BaselineCalculationTransformer from '#transformers/baseline_calculation_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class BaselineCalculationsController {
  constructor(protected baselines: BaselineService) {}

  /** Recalculates the user's baselines from stored history. */
  async store({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    const statuses = await this.baselines.calculate(params.user_id)
    return serialize(BaselineCalculationTransformer.transform({ userId: params.user_id, statuses }))
  }
}

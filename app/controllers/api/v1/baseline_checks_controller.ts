import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BaselineService } from '#services/analytics/baseline_service'
import BaselineCheckTransformer from '#transformers/baseline_check_transformer'
import { checkBaselineValidator } from '#validators/analytics'

@inject()
export default class BaselineChecksController {
  constructor(protected baselines: BaselineService) {}

  /** Checks one finite value against the stored baseline (422 for a non-finite value). */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(checkBaselineValidator)
    const check = await this.baselines.check(params.user_id, params.metric_name, params.value)
    return serialize(BaselineCheckTransformer.transform(check))
  }
}

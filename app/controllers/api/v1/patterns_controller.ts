import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PatternService } from '#services/analytics/pattern_service'
import PatternTransformer from '#transformers/pattern_transformer'
import { showPatternValidator, userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class PatternsController {
  constructor(protected patterns: PatternService) {}

  /** Stored patterns of the user, in name order. */
  async index({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    return serialize(PatternTransformer.transform(await this.patterns.list(params.user_id)))
  }

  /** One pattern; 404 for an unknown name (valid names listed) or not detected yet. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showPatternValidator)
    return serialize(PatternTransformer.transform(await this.patterns.show(params.user_id, params.pattern_name)))
  }
}

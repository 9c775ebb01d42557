import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PatternService } from '#services/analytics/pattern_service'
import PatternDetectionTransformer from '#transformers/pattern_detection_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class PatternDetectionsController {
  constructor(protected patterns: PatternService) {}

  /** Analyses the stored history and stores all four patterns. */
  async store({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    const significances = await this.patterns.detectFor(params.user_id)
    return serialize(PatternDetectionTransformer.transform({ userId: params.user_id, significances }))
  }
}

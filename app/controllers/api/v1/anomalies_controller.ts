import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AnomalyService } from '#services/analytics/anomaly_service'
import AnomalyScanTransformer from '#transformers/anomaly_scan_transformer'
import { userAnalyticsValidator } from '#validators/analytics'

@inject()
export default class AnomaliesController {
  constructor(protected anomalies: AnomalyService) {}

  /** Latest values (within 7 days) outside their baseline's IQR fences. */
  async index({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userAnalyticsValidator)
    const anomalies = await this.anomalies.scan(params.user_id)
    return serialize(AnomalyScanTransformer.transform({ userId: params.user_id, anomalies }))
  }
}

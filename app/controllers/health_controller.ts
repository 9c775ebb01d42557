import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { HealthProbeService } from '#services/health_probe_service'

/**
 * Public liveness of the analytics server (spec: `{status, database}`). ReadFastPath answers most
 * probes before the pipeline, from the same service; this is the answer for the rest (HEAD, CORS).
 */
@inject()
export default class HealthController {
  constructor(protected health: HealthProbeService) {}

  async show({ response }: HttpContext) {
    const report = await this.health.check()
    return response.status(HealthProbeService.httpStatus(report)).json(report)
  }
}

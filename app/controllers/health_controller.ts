import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ServerHealthService } from '#services/server_health_service'

/** Public liveness of the analytics server (spec: `{status, database}`). */
@inject()
export default class HealthController {
  constructor(protected health: ServerHealthService) {}

  async show({ response }: HttpContext) {
    const report = await this.health.check()
    return response.status(report.status === 'healthy' ? 200 : 503).json(report)
  }
}

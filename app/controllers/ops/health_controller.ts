import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DependencyHealthService } from '#services/ops/dependency_health_service'

/** GET {ops}/health — 200 when every check is healthy, else 503 with the same body. */
@inject()
export default class HealthController {
  constructor(protected health: DependencyHealthService) {}

  async show({ response }: HttpContext) {
    const report = await this.health.check()
    return response.status(report.status === 'healthy' ? 200 : 503).json(report)
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsQueueService } from '#services/ops/queue_service'
import { retryFailedJobValidator } from '#validators/ops'

/** POST {ops}/queue/retry/:id — dispatch one failed job again (404 for an unknown id). */
@inject()
export default class RetryFailedJobController {
  constructor(protected queue: OpsQueueService) {}

  async handle({ request, response, opsPrincipal }: HttpContext) {
    const { params } = await request.validateUsing(retryFailedJobValidator)
    const retried = await this.queue.retry(params.id, opsPrincipal!.name)
    return response.json({ retried: [retried], count: 1 })
  }
}

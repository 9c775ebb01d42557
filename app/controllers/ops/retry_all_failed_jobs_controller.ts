import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsQueueService } from '#services/ops/queue_service'

/** POST {ops}/queue/retry-all — dispatch every failed job again. */
@inject()
export default class RetryAllFailedJobsController {
  constructor(protected queue: OpsQueueService) {}

  async handle({ response, opsPrincipal }: HttpContext) {
    const retried = await this.queue.retryAll(opsPrincipal!.name)
    return response.json({ retried, count: retried.length })
  }
}

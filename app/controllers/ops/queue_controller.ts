import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsQueueService } from '#services/ops/queue_service'

/** GET {ops}/queue — per-queue pending/processing counts and the failed job count. */
@inject()
export default class QueueController {
  constructor(protected queue: OpsQueueService) {}

  async show({ response }: HttpContext) {
    return response.json(await this.queue.status())
  }
}

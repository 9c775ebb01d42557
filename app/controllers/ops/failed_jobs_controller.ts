import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsQueueService } from '#services/ops/queue_service'
import { listFailedJobsValidator } from '#validators/ops'

/** GET {ops}/queue/failed — failed jobs, newest first, paged. */
@inject()
export default class FailedJobsController {
  constructor(protected queue: OpsQueueService) {}

  async index({ request, response }: HttpContext) {
    const { page, per_page: perPage } = await request.validateUsing(listFailedJobsValidator)
    return response.json(await this.queue.listFailed(page ?? 1, perPage ?? 50))
  }
}

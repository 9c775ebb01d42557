import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsStatsService } from '#services/ops/stats_service'

/** GET {ops}/stats — CPU, memory, disk and process figures. */
@inject()
export default class StatsController {
  constructor(protected stats: OpsStatsService) {}

  async show({ response }: HttpContext) {
    return response.json(await this.stats.collect())
  }
}

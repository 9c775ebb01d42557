import { inject } from '@adonisjs/core'
import { DashboardStatsService } from '#services/coolify/dashboard_stats_service'

/** GET {dashboard}/api/stats — aggregated, secret-free dashboard data (always 200). */
@inject()
export default class StatsController {
  constructor(protected stats: DashboardStatsService) {}

  async handle() {
    return this.stats.stats()
  }
}

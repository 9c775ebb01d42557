import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ClockService } from '#services/clock_service'
import { SystemStats } from '#services/ops/system_stats'

/** GET {ops}/stats — CPU, memory, disk and process figures with the time they were taken. */
@inject()
export default class StatsController {
  constructor(
    protected stats: SystemStats,
    protected clock: ClockService
  ) {}

  /** CPU is sampled over ~150 ms, memory is cgroup-aware, disk is the storage volume. */
  async show({ response }: HttpContext) {
    const stats = await this.stats.collect()
    return response.json({ stats, timestamp: this.clock.now().toISO()! })
  }
}

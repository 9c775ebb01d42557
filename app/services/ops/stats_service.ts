import { inject } from '@adonisjs/core'
import { storageDir } from '#config/paths'
import { ClockService } from '#services/clock_service'
import { SystemStats, type SystemStatsReport } from '#services/ops/system_stats'

/** `GET {ops}/stats`: system figures of this instance with the time they were taken. */
@inject()
export class OpsStatsService {
  constructor(protected clock: ClockService) {}

  /** CPU (sampled over ~150 ms), memory (cgroup-aware), disk of the storage volume, process. */
  async collect(): Promise<{ stats: SystemStatsReport; timestamp: string }> {
    const stats = await new SystemStats({ storagePath: storageDir }).collect()
    return { stats, timestamp: this.clock.now().toISO()! }
  }
}

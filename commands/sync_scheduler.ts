import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { SchedulerLoop } from '#services/sync/background_runner'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'

/**
 * `node ace sync:scheduler`: the scale-out scheduler process (HRVAULT_ROLE=web elsewhere). Enqueues
 * one SyncUserJob per connected user every SYNC_INTERVAL_MINUTES; several instances are safe (the
 * interval slot is locked). `--once` runs a single tick and exits.
 */
export default class SyncSchedulerCommand extends BaseCommand {
  static commandName = 'sync:scheduler'
  static description = 'Enqueue background syncs every SYNC_INTERVAL_MINUTES (scale-out scheduler process)'
  static options: CommandOptions = { startApp: true, staysAlive: true }

  @flags.boolean({ description: 'Run one tick and exit' })
  declare once?: boolean

  async run() {
    const scheduler = await this.app.container.make(SyncSchedulerService)
    if (this.once) {
      const tick = await scheduler.tick()
      this.logger.log(`slot ${tick.slot}: ${tick.outcome}, ${tick.jobs.length} job(s) enqueued`)
      await this.terminate()
      return
    }
    if (!scheduler.enabled()) {
      this.logger.warning('SYNC_ENABLED=false: nothing to schedule.')
      await this.terminate()
      return
    }
    const loop = new SchedulerLoop()
    loop.start()
    this.logger.info('sync scheduler running (Ctrl+C to stop)')
    this.app.terminating(() => loop.stop())
  }
}

import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { SyncStatusService } from '#services/sync/sync_status_service'

/** Failed types of a run, shortened when many failed. */
const summariseErrors = (types: string[]) => (types.length > 3 ? `${types.length} types failed` : types.join(', '))

/** `node ace sync:status`: background sync settings, Polar's budget, and each user's connection and last sync. */
export default class SyncStatusCommand extends BaseCommand {
  static commandName = 'sync:status'
  static description = 'Show background sync settings, the Polar request budget and the last sync of every user'
  static options: CommandOptions = { startApp: true }

  async run() {
    const service = await this.app.container.make(SyncStatusService)
    const status = await service.status()
    this.logger.log(
      `Background sync: ${status.enabled ? 'enabled' : 'disabled (SYNC_ENABLED=false)'}, every ${status.intervalMinutes} min, ` +
        `${status.days} days per sync, role ${status.role}`
    )
    const interval = status.interval
    if (interval.stretched) {
      this.logger.log(
        `Interval stretched from ${interval.configuredMinutes} min (${interval.webhook ? 'POLAR_RECONCILE_INTERVAL_MINUTES' : 'SYNC_INTERVAL_MINUTES'}): ` +
          `${interval.users} connected users need at least ${interval.requiredMinutes} min to fit Polar's budget`
      )
    }
    for (const w of status.budget.windows) {
      this.logger.log(
        `Polar ${w.window} window (${w.lengthSeconds / 60} min): ${w.used} / ${w.limit} calls ` +
          `(${Math.round((w.used / w.limit) * 100)} %, limit from ${w.limitSource === 'polar' ? "Polar's headers" : 'the formula'}), ` +
          `resets in ${w.resetsInSeconds} s${w.resetSource === 'estimate' ? ' (estimated)' : ''}; scheduled syncs stop at ${w.caps.scheduled}, manual/back-fill at ${w.caps.manual}, events at ${w.caps.event}`
      )
    }
    if (status.queue) {
      this.logger.log(`Queue: ${status.queue.pending} pending, ${status.queue.delayed} delayed, ${status.queue.processing} running`)
    }
    if (status.users.length === 0) {
      this.logger.log('No users yet.')
      return
    }
    const table = this.ui.table()
    table.head(['User', 'Connected', 'Last synced', 'Last run', 'Records', 'Calls', 'Errors'])
    for (const u of status.users) {
      table.row([
        u.externalId,
        u.connected ? 'yes' : 'no',
        u.lastSyncedAt ?? '—',
        u.lastRun ? `${u.lastRun.status} (${u.lastRun.trigger}, ${u.lastRun.startedAt})` : '—',
        u.lastRun ? String(u.lastRun.records) : '—',
        u.lastRun ? String(u.lastRun.providerCalls) : '—',
        u.lastRun ? summariseErrors(u.lastRun.errors) : '',
      ])
    }
    table.render()
  }
}

import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { SyncStatusService } from '#services/sync/sync_status_service'

/** Failed types of a run, shortened when many failed. */
const summariseErrors = (types: string[]) => (types.length > 3 ? `${types.length} types failed` : types.join(', '))

/** `node ace sync:status`: background sync settings and each user's connection and last sync. */
export default class SyncStatusCommand extends BaseCommand {
  static commandName = 'sync:status'
  static description = 'Show background sync settings and the last sync of every user'
  static options: CommandOptions = { startApp: true }

  async run() {
    const service = await this.app.container.make(SyncStatusService)
    const status = await service.status()
    this.logger.log(
      `Background sync: ${status.enabled ? 'enabled' : 'disabled (SYNC_ENABLED=false)'}, every ${status.intervalMinutes} min, ` +
        `${status.days} days per sync, role ${status.role}`
    )
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

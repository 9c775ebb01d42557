import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import User from '#models/user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import type { SyncOutcome } from '#services/sync/sync_engine'
import { SYNC_TYPE_KEYS } from '#services/sync/sync_types'
import { UserSyncService } from '#services/sync/user_sync_service'

/**
 * `node ace sync [--user <id>] [--days N]`: syncs users with a stored Polar token now (the same
 * per-user code path as the trigger endpoint and the background job), with a progress bar and a
 * per-type summary table.
 */
export default class SyncCommand extends BaseCommand {
  static commandName = 'sync'
  static description = 'Sync users with a stored Polar token now (all connected users, or --user <id>)'
  static options: CommandOptions = { startApp: true }

  @flags.string({ description: 'Only this user id' })
  declare user?: string

  @flags.number({ description: 'Calendar days ending today (1–365, default SYNC_DAYS)' })
  declare days?: number

  async run() {
    if (this.days !== undefined && (!Number.isInteger(this.days) || this.days < 1 || this.days > 365)) {
      this.logger.error('--days must be an integer from 1 to 365')
      this.exitCode = 1
      return
    }
    const tokens = await this.app.container.make(ProviderTokenService)
    const userSync = await this.app.container.make(UserSyncService)
    let users: User[]
    if (this.user) {
      const user = await User.findBy('externalId', this.user)
      if (!user) {
        this.logger.error(`Unknown user "${this.user}"`)
        this.exitCode = 1
        return
      }
      users = [user]
    } else {
      users = await tokens.connectedUsers()
    }
    if (users.length === 0) {
      this.logger.warning('No connected user. Connect one with `node ace polar:auth` or the admin UI.')
      return
    }

    const outcomes: SyncOutcome[] = []
    for (const user of users) {
      try {
        const outcome = await userSync.sync(user, {
          days: this.days,
          trigger: 'command',
          onProgress: (progress, type) => {
            const width = 24
            const filled = Math.round((progress.done / progress.total) * width)
            const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`
            this.logger.logUpdate(`${user.externalId} ${bar} ${progress.done}/${progress.total} ${type}`)
          },
        })
        this.logger.logUpdatePersist()
        outcomes.push(outcome)
        this.report(outcome)
      } catch (error) {
        this.logger.logUpdatePersist()
        this.logger.error(`${user.externalId}: ${(error as Error).message}`)
        this.exitCode = 1
      }
    }
    if (outcomes.some((o) => o.status === 'failed' || o.status === 'rate_limited')) this.exitCode = 1
  }

  protected report(outcome: SyncOutcome) {
    const table = this.ui.table()
    table.head(['Type', 'Records', 'Error'])
    for (const key of SYNC_TYPE_KEYS) {
      table.row([key, String(outcome.results[key]), outcome.errors[key] ?? ''])
    }
    table.render()
    const rate = outcome.durationMs > 0 ? Math.round((outcome.rowsWritten / outcome.durationMs) * 1000) : 0
    const line =
      `${outcome.userId}: ${outcome.status} — ${outcome.rowsWritten} rows in ${(outcome.durationMs / 1000).toFixed(1)} s ` +
      `(${rate} rows/s), ${outcome.providerCalls} Polar calls, window ${outcome.from} … ${outcome.to}`
    if (outcome.status === 'success') this.logger.success(line)
    else if (outcome.status === 'partial') this.logger.warning(line)
    else this.logger.error(line)
  }
}

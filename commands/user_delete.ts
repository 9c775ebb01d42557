import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import UnknownUserException from '#exceptions/unknown_user_exception'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import { UserDeletionService } from '#services/users/user_deletion_service'

/**
 * `node ace user:delete <id> [--force]`: the GDPR erasure of one user, as `DELETE /api/v1/users/{id}`
 * does it (de-registration at Polar, every row deleted in one transaction, an audit entry). Asks for
 * confirmation unless `--force`.
 */
export default class UserDeleteCommand extends BaseCommand {
  static commandName = 'user:delete'
  static description = 'Erase a user: de-register at Polar and delete every stored row (GDPR erasure)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'User id (the API {user_id})' })
  declare userId: string

  @flags.boolean({ description: 'Do not ask for confirmation' })
  declare force?: boolean

  async run() {
    if (!this.force) {
      const confirmed = await this.prompt.confirm(
        `Erase user "${this.userId}" and every row stored for them? This cannot be undone.`,
        { default: false }
      )
      if (!confirmed) {
        this.logger.info('Nothing was deleted.')
        return
      }
    }
    const service = await this.app.container.make(UserDeletionService)
    try {
      const report = await service.delete(this.userId, { type: 'console', name: 'node ace user:delete' })
      const rows = Object.values(report.tables).reduce((sum, n) => sum + n, 0)
      this.logger.success(`Erased user "${report.userId}": ${rows} rows deleted (audit entry ${report.auditId}).`)
      const table = this.ui.table()
      table.head(['Table', 'Rows'])
      for (const [name, count] of Object.entries(report.tables)) if (count > 0) table.row([name, String(count)])
      table.render()
      const polar = report.polar
      const status = polar.providerStatus === null ? '' : ` (HTTP ${polar.providerStatus})`
      this.logger.log(`Polar de-registration: ${polar.outcome}${status}${polar.detail ? `: ${polar.detail}` : ''}`)
    } catch (error) {
      if (error instanceof UnknownUserException || error instanceof SyncInProgressException) {
        this.logger.error(error.message)
        this.exitCode = 1
        return
      }
      throw error
    }
  }
}

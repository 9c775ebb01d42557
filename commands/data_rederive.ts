import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import UnknownUserException from '#exceptions/unknown_user_exception'
import { DATA_TYPE_KEYS, type DataTypeKey } from '#services/records/data_types'
import { RederiveService, type RederivedUser } from '#services/records/rederive_service'

/**
 * `node ace data:rederive [--user <id>] [--type <key>] [--dry-run]`: rebuilds the stored rows from
 * the raw-payload archive with the current mappers, one transaction per user, and prints per type
 * how many rows were added, changed or unchanged.
 */
export default class DataRederiveCommand extends BaseCommand {
  static commandName = 'data:rederive'
  static description = 'Rebuild stored rows from the raw-payload archive with the current mappers'
  static options: CommandOptions = { startApp: true }

  @flags.string({ description: 'Only this user id (default: every user with archived payloads)' })
  declare user?: string

  @flags.string({ description: `Only this data type (${DATA_TYPE_KEYS.join(', ')})` })
  declare type?: string

  @flags.boolean({ description: 'Report what would change without writing' })
  declare dryRun?: boolean

  async run() {
    if (this.type !== undefined && !DATA_TYPE_KEYS.includes(this.type as DataTypeKey)) {
      this.logger.error(`Unknown type "${this.type}". Types: ${DATA_TYPE_KEYS.join(', ')}`)
      this.exitCode = 1
      return
    }
    const service = await this.app.container.make(RederiveService)
    let users
    try {
      users = await service.usersOf(this.user)
    } catch (error) {
      if (!(error instanceof UnknownUserException)) throw error
      this.logger.error(error.message)
      this.exitCode = 1
      return
    }
    if (users.length === 0) {
      this.logger.warning('No user has archived payloads: nothing to re-derive.')
      return
    }
    const types = service.typesOf(this.type as DataTypeKey | undefined)
    for (const user of users) this.report(await service.rederiveUser(user, types, this.dryRun ?? false))
  }

  protected report(outcome: RederivedUser) {
    if (outcome.error) {
      this.logger.error(`${outcome.userId}: ${outcome.error}`)
      this.exitCode = 1
      return
    }
    const table = this.ui.table()
    table.head(['Type', 'Payloads', 'Added', 'Changed', 'Unchanged'])
    for (const t of outcome.types) table.row([t.type, String(t.payloads), String(t.added), String(t.changed), String(t.unchanged)])
    table.render()
    const added = outcome.types.reduce((sum, t) => sum + t.added, 0)
    const changed = outcome.types.reduce((sum, t) => sum + t.changed, 0)
    const summary = `${outcome.userId}: ${added} added, ${changed} changed`
    if (this.dryRun) this.logger.info(`${summary} (dry run: nothing was written)`)
    else this.logger.success(`${summary}; data version bumped${outcome.written ? ', analytics recomputed' : ''}`)
  }
}

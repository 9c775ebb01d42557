import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { ApiKeyService } from '#services/auth/api_key_service'

/**
 * `node ace api-key create --name <label> [--user <id>]` prints a new key
 * once; `api-key list` shows prefixes; `api-key revoke <prefix>` revokes.
 */
export default class ApiKeyCommand extends BaseCommand {
  static commandName = 'api-key'
  static description = 'Create, list or revoke analytics API keys (create | list | revoke <prefix>)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'create, list or revoke' })
  declare action: string

  @args.string({ description: 'Key prefix to revoke', required: false })
  declare prefix?: string

  @flags.string({ description: 'Label of the new key' })
  declare name?: string

  @flags.string({ description: 'Limit the new key to this user id (omit for a service key)' })
  declare user?: string

  async run() {
    const service = await this.app.container.make(ApiKeyService)
    switch (this.action) {
      case 'create':
        return this.create(service)
      case 'list':
        return this.list(service)
      case 'revoke':
        return this.revoke(service)
      default:
        this.logger.error(`Unknown action "${this.action}". Use create, list or revoke.`)
        this.exitCode = 1
    }
  }

  protected async create(service: ApiKeyService) {
    if (!this.name) {
      this.logger.error('Missing --name <label>')
      this.exitCode = 1
      return
    }
    try {
      const { apiKey, plain } = await service.create(this.name, this.user ?? null)
      this.logger.success(`Created API key "${apiKey.name}" (${apiKey.prefix}…)`)
      this.logger.log(`Scope: ${this.user ? `user ${this.user}` : 'service key (all users)'}`)
      this.logger.log('Store it now; it is shown only once:')
      this.logger.log(plain)
    } catch (error) {
      this.logger.error((error as Error).message)
      this.exitCode = 1
    }
  }

  protected async list(service: ApiKeyService) {
    const keys = await service.list()
    if (keys.length === 0) {
      this.logger.info('No API keys yet. The API is open on loopback until the first key exists.')
      return
    }
    const table = this.ui.table()
    table.head(['Prefix', 'Name', 'Scope', 'Created', 'Last used', 'Status'])
    for (const key of keys) {
      table.row([
        key.prefix,
        key.name,
        key.user?.externalId ?? 'service',
        key.createdAt.toISO() ?? '',
        key.lastUsedAt?.toISO() ?? 'never',
        key.revokedAt ? 'revoked' : 'active',
      ])
    }
    table.render()
  }

  protected async revoke(service: ApiKeyService) {
    if (!this.prefix) {
      this.logger.error('Usage: api-key revoke <prefix>')
      this.exitCode = 1
      return
    }
    if (await service.revoke(this.prefix)) {
      this.logger.success(`Revoked ${this.prefix}`)
    } else {
      this.logger.error(`No active key with prefix ${this.prefix}`)
      this.exitCode = 1
    }
  }
}

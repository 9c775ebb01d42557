import { ApiKeySchema } from '#database/schema'
import { belongsTo } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/** An API key: SHA-256 hash plus visible prefix; `userId` null means a service key. */
export default class ApiKey extends ApiKeySchema {
  static table = 'api_keys'

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  get isRevoked() {
    return this.revokedAt !== null
  }
}

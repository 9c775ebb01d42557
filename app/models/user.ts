import { randomInt } from 'node:crypto'
import { beforeCreate } from '@adonisjs/lucid/orm'
import { UserSchema } from '#database/schema'

/**
 * A person whose data HRVault keeps. `externalId` is the `{user_id}` of the
 * API; the provider token is stored encrypted and never serialized.
 */
export default class User extends UserSchema {
  static table = 'users'

  /** True when a provider token is stored, so background syncs can run. */
  get isConnected() {
    return this.providerTokenEncrypted !== null
  }

  /**
   * The data version starts at a random value: SQLite hands a deleted user's id to the next
   * user, and the read cache keys on (id, version), so a new user must never start at a version
   * an earlier holder of the id already used.
   */
  @beforeCreate()
  static startDataVersion(user: User) {
    if (user.dataVersion === undefined) user.dataVersion = randomInt(1, 2 ** 30)
  }
}

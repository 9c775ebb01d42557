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
}

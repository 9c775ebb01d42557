import { Exception } from '@adonisjs/core/exceptions'

/**
 * A manual sync of this user (API trigger or admin Sync now) ran less than
 * SYNC_TRIGGER_COOLDOWN_SECONDS ago: 429 with the real `Retry-After` and the cooldown's RateLimit-*
 * headers. Nothing was fetched or written.
 */
export default class SyncCooldownException extends Exception {
  static status = 429
  static code = 'E_SYNC_COOLDOWN'

  declare headers: Record<string, string>
  declare problemExtensions: Record<string, unknown>

  constructor(userId: string, headers: Record<string, string>) {
    const retryAfter = Number(headers['Retry-After'])
    super(`User "${userId}" was synced on request moments ago; the next manual sync is possible in ${retryAfter} seconds.`)
    this.headers = headers
    this.problemExtensions = { user_id: userId, retry_after: retryAfter }
  }
}

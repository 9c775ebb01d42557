import { Exception } from '@adonisjs/core/exceptions'

/**
 * Every data type of a sync failed (DESIGN §4: 502). The body names the provider's reason per
 * type in `provider_errors` (type → message).
 */
export default class SyncFailedException extends Exception {
  static status = 502
  static code = 'E_SYNC_FAILED'

  declare problemExtensions: Record<string, unknown>

  constructor(userId: string, errors: Record<string, string>) {
    const reasons = [...new Set(Object.values(errors))]
    super(
      reasons.length === 1
        ? `Every data type failed to sync from Polar: ${reasons[0]}`
        : 'Every data type failed to sync from Polar; see provider_errors for the reason per type.'
    )
    this.problemExtensions = { user_id: userId, provider: 'polar', provider_errors: errors }
  }
}

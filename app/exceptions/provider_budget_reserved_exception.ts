import { Exception } from '@adonisjs/core/exceptions'

/**
 * Polar's request budget of this installation is used at or above POLAR_MANUAL_BUDGET_PERCENT in a
 * window: the rest is kept for background sync, so a manual sync is refused with 503 and
 * `Retry-After` until that window resets. Nothing was fetched or written.
 */
export default class ProviderBudgetReservedException extends Exception {
  static status = 503
  static code = 'E_PROVIDER_BUDGET_RESERVED'

  declare headers: Record<string, string>
  declare problemExtensions: Record<string, unknown>

  constructor(userId: string, retryAfterSeconds: number, percent: number) {
    super(
      `Polar's request budget for this installation is at least ${percent} % used; the rest is reserved for ` +
        `background sync. Retry in ${retryAfterSeconds} seconds.`
    )
    this.headers = { 'Retry-After': String(retryAfterSeconds) }
    this.problemExtensions = { user_id: userId, provider: 'polar', retry_after: retryAfterSeconds }
  }
}

import { Exception } from '@adonisjs/core/exceptions'

/**
 * Polar rate-limited the sync (429 or an exhausted `RateLimit-*` window): 503 with `Retry-After`
 * (DESIGN §4). Types stored before the limit was hit are kept and listed in `results`.
 */
export default class ProviderRateLimitedException extends Exception {
  static status = 503
  static code = 'E_PROVIDER_RATE_LIMITED'

  declare headers: Record<string, string>
  declare problemExtensions: Record<string, unknown>

  constructor(userId: string, retryAfterSeconds: number, results: Record<string, number>) {
    super(`Polar's rate limit was reached while syncing; retry in ${retryAfterSeconds} seconds.`)
    this.headers = { 'Retry-After': String(retryAfterSeconds) }
    this.problemExtensions = { user_id: userId, provider: 'polar', retry_after: retryAfterSeconds, results }
  }
}

import { PolarError } from '#services/polar/errors/polar_error'

/**
 * Polar refused the call with 429 (or the last `RateLimit-*` headers show an exhausted window).
 * `retryAfterSeconds` comes from `RateLimit-Reset` of the exhausted window; the sync engine
 * answers 503 with `Retry-After` set to it (DESIGN §4).
 */
export class PolarRateLimitError extends PolarError {
  static status = 503
  static code = 'E_POLAR_RATE_LIMITED'

  /** Seconds until Polar's exhausted rate-limit window resets (at least 1). */
  declare retryAfterSeconds: number

  constructor(endpoint: string, retryAfterSeconds: number) {
    super(
      `Polar rate limit reached on ${endpoint}; retry in ${retryAfterSeconds} s`,
      endpoint,
      429
    )
    this.retryAfterSeconds = retryAfterSeconds
  }
}

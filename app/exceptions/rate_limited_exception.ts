import { Exception } from '@adonisjs/core/exceptions'

/** Too many requests in the window; carries Retry-After and RateLimit-* headers. */
export default class RateLimitedException extends Exception {
  static status = 429
  static code = 'E_TOO_MANY_REQUESTS'

  constructor(public headers: Record<string, string>) {
    super(`Rate limit exceeded. Retry in ${headers['Retry-After']} seconds.`)
  }
}

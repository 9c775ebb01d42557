import { Exception } from '@adonisjs/core/exceptions'

/**
 * Coolify did not answer within the connect or total timeout: 504 (DESIGN §6).
 */
export default class CoolifyTimeoutException extends Exception {
  static status = 504
  static code = 'E_COOLIFY_TIMEOUT'
  /** Added to the problem body: the upstream is always named. */
  problemExtensions: Record<string, unknown> = { upstream: 'coolify' }
  /** Response headers of the problem (Retry-After of an upstream 429). */
  headers: Record<string, string> = {}
}

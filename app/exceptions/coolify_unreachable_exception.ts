import { Exception } from '@adonisjs/core/exceptions'

/**
 * Coolify could not be reached (connection refused, reset, DNS failure): 502, the upstream "coolify" named in the detail (DESIGN §3, §6).
 */
export default class CoolifyUnreachableException extends Exception {
  static status = 502
  static code = 'E_COOLIFY_UNREACHABLE'
  /** Added to the problem body: the upstream is always named. */
  problemExtensions: Record<string, unknown> = { upstream: 'coolify' }
  /** Response headers of the problem (Retry-After of an upstream 429). */
  headers: Record<string, string> = {}
}

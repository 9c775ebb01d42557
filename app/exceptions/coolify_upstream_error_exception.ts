import { Exception } from '@adonisjs/core/exceptions'

/**
 * Coolify answered with a 5xx status: 502 with the upstream status and message in the detail.
 */
export default class CoolifyUpstreamErrorException extends Exception {
  static status = 502
  static code = 'E_COOLIFY_UPSTREAM_ERROR'
  /** Added to the problem body: the upstream is always named. */
  problemExtensions: Record<string, unknown> = { upstream: 'coolify' }
  /** Response headers of the problem (Retry-After of an upstream 429). */
  headers: Record<string, string> = {}
}

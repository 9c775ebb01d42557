import { Exception } from '@adonisjs/core/exceptions'

/**
 * Coolify refused COOLIFY_TOKEN (upstream 401, or 400 "Invalid token."): a server-side configuration problem, so 502 and never a 401 that would look like the admin session expired.
 */
export default class CoolifyTokenRejectedException extends Exception {
  static status = 502
  static code = 'E_COOLIFY_TOKEN_REJECTED'
  /** Added to the problem body: the upstream is always named. */
  problemExtensions: Record<string, unknown> = { upstream: 'coolify' }
  /** Response headers of the problem (Retry-After of an upstream 429). */
  headers: Record<string, string> = {}
}

import { Exception } from '@adonisjs/core/exceptions'

/**
 * Coolify refused the request with a 4xx status (404, 409, 422, 429, 400 "already running" …): raised with that same status and Coolify's message, so the admin UI can show it.
 */
export default class CoolifyRequestException extends Exception {
  static status = 400
  static code = 'E_COOLIFY_REQUEST'
  /** Added to the problem body: the upstream is always named. */
  problemExtensions: Record<string, unknown> = { upstream: 'coolify' }
  /** Response headers of the problem (Retry-After of an upstream 429). */
  headers: Record<string, string> = {}
}

import { Exception } from '@adonisjs/core/exceptions'

/**
 * Base of the errors raised while talking to an upstream of the dashboard: Coolify itself or
 * the ops API of a deployed application. The problem body always names that upstream, and
 * the error may carry response headers (Retry-After of an upstream 429).
 */
export default abstract class CoolifyUpstreamException extends Exception {
  /** Named in the problem body as `upstream`. */
  static upstream: 'coolify' | 'ops' = 'coolify'

  /** Added to the problem body: the upstream, plus what a subclass or its thrower adds. */
  problemExtensions: Record<string, unknown> = { upstream: (this.constructor as typeof CoolifyUpstreamException).upstream }

  /** Response headers of the problem. */
  headers: Record<string, string> = {}
}

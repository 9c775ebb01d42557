import { Exception } from '@adonisjs/core/exceptions'

/**
 * The application has no usable ops API configuration in Coolify (no https domain, no OPS_TOKEN env var, or its value is not readable with the configured Coolify token): 409.
 */
export default class CoolifyOpsNotConfiguredException extends Exception {
  static status = 409
  static code = 'E_COOLIFY_OPS_NOT_CONFIGURED'
  /** Added to the problem body: which application's ops API failed. */
  problemExtensions: Record<string, unknown> = { upstream: 'ops' }
}

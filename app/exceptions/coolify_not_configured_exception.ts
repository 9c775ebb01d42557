import { Exception } from '@adonisjs/core/exceptions'

/**
 * COOLIFY_URL or COOLIFY_TOKEN is not set: the dashboard API cannot reach any Coolify instance (503).
 */
export default class CoolifyNotConfiguredException extends Exception {
  static status = 503
  static code = 'E_COOLIFY_NOT_CONFIGURED'
}

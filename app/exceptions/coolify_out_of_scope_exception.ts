import { Exception } from '@adonisjs/core/exceptions'

/**
 * A resource uuid outside the project configured by COOLIFY_PROJECT_UUID: 403, whether or not the resource exists.
 */
export default class CoolifyOutOfScopeException extends Exception {
  static status = 403
  static code = 'E_COOLIFY_OUT_OF_SCOPE'
}

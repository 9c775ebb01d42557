import { Exception } from '@adonisjs/core/exceptions'

/** Operations API: a valid token without the scope the endpoint requires (403). */
export default class OpsForbiddenException extends Exception {
  static status = 403
  static code = 'E_OPS_FORBIDDEN'
}

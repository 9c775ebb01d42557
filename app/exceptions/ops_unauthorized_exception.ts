import { Exception } from '@adonisjs/core/exceptions'

/** Operations API: bearer token missing or not a configured token (401). */
export default class OpsUnauthorizedException extends Exception {
  static status = 401
  static code = 'E_OPS_UNAUTHORIZED'
  headers = { 'WWW-Authenticate': 'Bearer realm="ops"' }
}

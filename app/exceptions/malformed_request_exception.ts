import { Exception } from '@adonisjs/core/exceptions'

/**
 * A request carried a value that cannot be decoded (an undecodable
 * percent-escape in a cookie or a CSRF header): a client error, never a 500.
 */
export default class MalformedRequestException extends Exception {
  static status = 400
  static code = 'E_MALFORMED_REQUEST'
}

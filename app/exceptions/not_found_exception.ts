import { Exception } from '@adonisjs/core/exceptions'

/** A resource that does not exist (404), with a specific message. */
export default class NotFoundException extends Exception {
  static status = 404
  static code = 'E_NOT_FOUND'
}

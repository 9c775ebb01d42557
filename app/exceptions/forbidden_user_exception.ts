import { Exception } from '@adonisjs/core/exceptions'

/** A user-scoped API key used on another user's data (403). */
export default class ForbiddenUserException extends Exception {
  static status = 403
  static code = 'E_FORBIDDEN_USER'

  constructor() {
    super('This API key is scoped to another user.')
  }
}

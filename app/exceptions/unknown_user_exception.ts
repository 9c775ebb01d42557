import { Exception } from '@adonisjs/core/exceptions'

/** A `{user_id}` HRVault has never seen (DESIGN §3: 404). */
export default class UnknownUserException extends Exception {
  static status = 404
  static code = 'E_UNKNOWN_USER'

  constructor(userId: string) {
    super(`User "${userId}" was not found.`)
  }
}

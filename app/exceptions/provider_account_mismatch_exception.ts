import { Exception } from '@adonisjs/core/exceptions'

/**
 * The token's data belongs to another Polar account than the one this user is bound to (or to an
 * account already bound to another user): 409, and nothing of the sync was written.
 */
export default class ProviderAccountMismatchException extends Exception {
  static status = 409
  static code = 'E_PROVIDER_ACCOUNT_MISMATCH'

  constructor(message: string) {
    super(message)
  }
}

import { Exception } from '@adonisjs/core/exceptions'

/** The OAuth `state` of a callback is unknown, expired or already used. */
export default class ProviderOauthStateException extends Exception {
  static status = 400
  static code = 'E_OAUTH_STATE_INVALID'

  constructor() {
    super('The authorisation state is invalid, expired or already used. Start the connection again.')
  }
}

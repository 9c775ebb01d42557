import { Exception } from '@adonisjs/core/exceptions'

/** The sync trigger was called without `X-Provider-Token` (DESIGN §4: 400). */
export default class ProviderTokenMissingException extends Exception {
  static status = 400
  static code = 'E_PROVIDER_TOKEN_MISSING'

  constructor() {
    super('The X-Provider-Token header (the user\'s Polar AccessLink access token) is required.')
  }
}

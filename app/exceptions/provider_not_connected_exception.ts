import { Exception } from '@adonisjs/core/exceptions'

/** A background or command-line sync of a user for whom no Polar token is stored. */
export default class ProviderNotConnectedException extends Exception {
  static status = 409
  static code = 'E_PROVIDER_NOT_CONNECTED'

  constructor(userId: string) {
    super(
      `User "${userId}" has no stored Polar token. Connect the account (admin UI or \`node ace polar:auth\`) ` +
        'or trigger a sync with X-Provider-Token.'
    )
  }
}

import { Exception } from '@adonisjs/core/exceptions'

/** No Polar client id/secret in the environment or the admin settings. */
export default class ProviderNotConfiguredException extends Exception {
  static status = 503
  static code = 'E_PROVIDER_NOT_CONFIGURED'

  constructor() {
    super(
      'Polar AccessLink client credentials are not configured: set POLAR_CLIENT_ID and POLAR_CLIENT_SECRET ' +
        'or enter them in the admin UI.'
    )
  }
}

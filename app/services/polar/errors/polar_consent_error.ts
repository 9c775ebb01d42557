import { PolarError } from '#services/polar/errors/polar_error'

/**
 * Polar answered 403: the user has not accepted every mandatory data-sharing consent, or the
 * user is not registered with this client yet.
 */
export class PolarConsentError extends PolarError {
  static status = 502
  static code = 'E_POLAR_CONSENT_REQUIRED'

  constructor(endpoint: string) {
    super(
      `Polar refused access on ${endpoint} (403): the user has not accepted all mandatory consents. ` +
        'Sign in to Polar Flow (account.polar.com), accept the data-sharing consents, then sync again; ' +
        'if it persists, reconnect the account so the user is registered with this client.',
      endpoint,
      403
    )
  }
}

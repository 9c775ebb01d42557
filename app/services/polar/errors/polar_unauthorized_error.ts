import { PolarError } from '#services/polar/errors/polar_error'

/**
 * Polar rejected the access token (401): it is invalid, expired or revoked. AccessLink tokens
 * cannot be refreshed, so the user must authorise HRVault again.
 */
export class PolarUnauthorizedError extends PolarError {
  static status = 502
  static code = 'E_POLAR_UNAUTHORIZED'

  constructor(endpoint: string) {
    super(
      `Polar rejected the access token on ${endpoint} (401): the token is invalid, expired or revoked. ` +
        'Re-authorise HRVault with Polar (connect the account again) to get a new token.',
      endpoint,
      401
    )
  }
}

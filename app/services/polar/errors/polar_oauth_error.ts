import { PolarError } from '#services/polar/errors/polar_error'

/**
 * The token endpoint refused the authorisation code exchange: `invalid_grant` (the code is
 * unknown, already used, older than 10 minutes or issued for another redirect URI) or
 * `invalid_client` (wrong client id or secret).
 */
export class PolarOAuthError extends PolarError {
  static status = 502
  static code = 'E_POLAR_OAUTH'

  /** `invalid_grant` for a bad code, `invalid_client` for bad client credentials. */
  declare reason: 'invalid_grant' | 'invalid_client'

  constructor(endpoint: string, providerStatus: number, reason: 'invalid_grant' | 'invalid_client') {
    super(
      reason === 'invalid_client'
        ? `Polar rejected the client credentials on ${endpoint} (${providerStatus}): check POLAR_CLIENT_ID and POLAR_CLIENT_SECRET.`
        : `Polar rejected the authorisation code on ${endpoint} (${providerStatus}): it is invalid, already used or expired (codes live 10 minutes). Start the connection again.`,
      endpoint,
      providerStatus
    )
    this.reason = reason
  }
}

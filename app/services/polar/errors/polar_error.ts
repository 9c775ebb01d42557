import { Exception } from '@adonisjs/core/exceptions'

/**
 * Base of every error raised by the AccessLink client. `endpoint` names the call
 * (e.g. `GET /v3/users/sleep`) and `providerStatus` is Polar's HTTP status (null for a timeout,
 * a network failure or an unreadable body). Messages never contain tokens or secrets.
 */
export class PolarError extends Exception {
  static status = 502
  static code = 'E_POLAR_UPSTREAM'

  /** The AccessLink call that failed, `METHOD /path` without query or ids of other users. */
  declare endpoint: string
  /** Polar's HTTP status, or null when no usable response arrived. */
  declare providerStatus: number | null

  constructor(message: string, endpoint: string, providerStatus: number | null, options?: ErrorOptions) {
    super(message, options)
    this.endpoint = endpoint
    this.providerStatus = providerStatus
  }
}

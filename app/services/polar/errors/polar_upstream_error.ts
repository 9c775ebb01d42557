import { PolarError } from '#services/polar/errors/polar_error'

/**
 * Polar answered with a server error or an unexpected status, timed out, could not be reached,
 * or sent a body that is not the JSON shape of the endpoint. Rendered as 502 (DESIGN §3).
 */
export class PolarUpstreamError extends PolarError {
  static status = 502
  static code = 'E_POLAR_UPSTREAM'

  /** What went wrong, in words: `timeout`, `network`, `status`, `malformed`. */
  declare reason: 'timeout' | 'network' | 'status' | 'malformed'

  constructor(
    message: string,
    endpoint: string,
    providerStatus: number | null,
    reason: 'timeout' | 'network' | 'status' | 'malformed',
    options?: ErrorOptions
  ) {
    super(message, endpoint, providerStatus, options)
    this.reason = reason
  }
}

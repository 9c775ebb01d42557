import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * Coolify answered with a 5xx status: 502 with the upstream status and message in the detail.
 */
export default class CoolifyUpstreamErrorException extends CoolifyUpstreamException {
  static status = 502
  static code = 'E_COOLIFY_UPSTREAM_ERROR'
}

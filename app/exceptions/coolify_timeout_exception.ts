import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * Coolify did not answer within the connect or total timeout: 504 (DESIGN §6).
 */
export default class CoolifyTimeoutException extends CoolifyUpstreamException {
  static status = 504
  static code = 'E_COOLIFY_TIMEOUT'
}

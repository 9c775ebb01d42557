import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * Coolify could not be reached (connection refused, reset, DNS failure): 502, the upstream "coolify" named in the detail (DESIGN §3, §6).
 */
export default class CoolifyUnreachableException extends CoolifyUpstreamException {
  static status = 502
  static code = 'E_COOLIFY_UNREACHABLE'
}

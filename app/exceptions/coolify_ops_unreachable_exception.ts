import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * The ops API of a deployed application could not be reached or did not answer in time: 502 with one generic detail
 * for every failure (refused, reset, DNS, TLS, timeout, a resolved address that is not allowed), so the answer never
 * tells an open port from a closed one.
 */
export default class CoolifyOpsUnreachableException extends CoolifyUpstreamException {
  static status = 502
  static code = 'E_COOLIFY_OPS_UNREACHABLE'
  static upstream = 'ops' as const
}

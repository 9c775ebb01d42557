import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * The application has no usable ops API configuration in Coolify (no usable domain, no OPS_TOKEN env var or an unreadable value, an OPS_PREFIX outside `^/[A-Za-z0-9/_-]*$`, or a plain-http or private target while COOLIFY_OPS_ALLOW_PRIVATE is off): 409.
 */
export default class CoolifyOpsNotConfiguredException extends CoolifyUpstreamException {
  static status = 409
  static code = 'E_COOLIFY_OPS_NOT_CONFIGURED'
  static upstream = 'ops' as const
}

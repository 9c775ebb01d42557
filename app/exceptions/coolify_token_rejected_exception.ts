import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * Coolify refused COOLIFY_TOKEN (upstream 401, or 400 "Invalid token."): a server-side configuration problem, so 502 and never a 401 that would look like the admin session expired.
 */
export default class CoolifyTokenRejectedException extends CoolifyUpstreamException {
  static status = 502
  static code = 'E_COOLIFY_TOKEN_REJECTED'
}

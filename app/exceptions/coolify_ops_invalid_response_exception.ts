import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * The ops API of a deployed application answered something other than JSON (HTML, text, invalid or oversized JSON):
 * 502 carrying the upstream status as `upstream_status`, never the upstream body.
 */
export default class CoolifyOpsInvalidResponseException extends CoolifyUpstreamException {
  static status = 502
  static code = 'E_COOLIFY_OPS_INVALID_RESPONSE'
  static upstream = 'ops' as const

  constructor(message: string, upstreamStatus: number) {
    super(message)
    this.problemExtensions.upstream_status = upstreamStatus
  }
}

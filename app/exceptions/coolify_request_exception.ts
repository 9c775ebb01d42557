import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

/**
 * Coolify refused the request with a 4xx status (404, 409, 422, 429, 400 "already running" …): raised with that same status and Coolify's message, so the admin UI can show it.
 */
export default class CoolifyRequestException extends CoolifyUpstreamException {
  static status = 400
  static code = 'E_COOLIFY_REQUEST'
}

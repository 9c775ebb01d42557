import { Exception } from '@adonisjs/core/exceptions'

/**
 * An authorization request that cannot be answered by redirecting to the client: unknown
 * client, missing or unregistered redirect_uri, malformed parameters. Shown on an error page
 * (never redirected, so the endpoint is no open redirector).
 */
export default class AuthorizationRequestException extends Exception {
  static status = 400
  static code = 'E_OAUTH_AUTHORIZATION_REQUEST'
}

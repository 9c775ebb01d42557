import { Exception } from '@adonisjs/core/exceptions'

/** Error codes of RFC 6749 §5.2, RFC 7009, RFC 7591 §3.2.2 and RFC 8707. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'

/**
 * An error of the OAuth endpoints (token, revocation, registration). The exception handler
 * renders it as the RFC's JSON `{error, error_description}` with `Cache-Control: no-store`,
 * not as problem+json, because OAuth clients parse that shape. 400 unless said otherwise
 * (401 for `invalid_client`).
 */
export default class OAuthProtocolException extends Exception {
  static status = 400
  static code = 'E_OAUTH_ERROR'

  constructor(
    public error: OAuthErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string> } = {}
  ) {
    super(description, { status: options.status ?? (error === 'invalid_client' ? 401 : 400) })
    this.headers = options.headers ?? {}
  }

  declare headers: Record<string, string>
}

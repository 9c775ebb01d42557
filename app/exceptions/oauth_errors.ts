import { errors as vineErrors } from '@vinejs/vine'
import AuthorizationRequestException from '#exceptions/authorization_request_exception'
import OAuthProtocolException from '#exceptions/oauth_protocol_exception'

/** An error answer of the OAuth endpoints: RFC 6749 §5.2 / RFC 7591 §3.2.2 JSON, not problem+json. */
export interface OAuthErrorResponse {
  status: number
  body: { error: string; error_description: string }
  headers: Record<string, string>
}

/**
 * The OAuth JSON answer for an error of the registration, token or revocation endpoint, or null
 * for errors that keep the problem+json contract (rate limits, oversized bodies, outages).
 * Validation errors become `invalid_request` (registration: `invalid_client_metadata`, or
 * `invalid_redirect_uri` when the redirect URIs are malformed).
 */
export function oauthErrorFor(error: unknown, path: string): OAuthErrorResponse | null {
  if (error instanceof OAuthProtocolException) {
    return { status: error.status, body: { error: error.error, error_description: error.message }, headers: error.headers }
  }
  if (error instanceof vineErrors.E_VALIDATION_ERROR) {
    const first = ((error.messages ?? []) as Array<{ field: string; message: string }>)[0]
    let code = 'invalid_request'
    if (path.startsWith('/oauth/register')) {
      code = first?.field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata'
    }
    const description = first ? `${first.field}: ${first.message}` : 'The request has invalid parameters.'
    return { status: 400, body: { error: code, error_description: description }, headers: {} }
  }
  return null
}

/**
 * The message of the authorization endpoint's error page for an error that must not be
 * redirected to the client (unknown client, unregistered redirect_uri, malformed parameters),
 * or null for any other error.
 */
export function authorizationPageErrorFor(error: unknown): string | null {
  if (error instanceof AuthorizationRequestException) return error.message
  if (error instanceof vineErrors.E_VALIDATION_ERROR) {
    const first = ((error.messages ?? []) as Array<{ field: string; message: string }>)[0]
    return `The authorization request is malformed${first ? ` (${first.field}: ${first.message})` : ''}.`
  }
  return null
}

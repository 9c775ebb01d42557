import { inject } from '@adonisjs/core'
import type { Infer } from '@vinejs/vine/types'
import OAuthProtocolException from '#exceptions/oauth_protocol_exception'
import { OAuthClientService } from '#services/oauth/oauth_client_service'
import { OAuthTokenService, type OAuthTokenResponse } from '#services/oauth/oauth_token_service'
import type { revokeTokenValidator, tokenRequestValidator } from '#validators/oauth'

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

const missing = (name: string) => new OAuthProtocolException('invalid_request', `${name} is required.`)

/**
 * The token (RFC 6749 §3.2) and revocation (RFC 7009) endpoints: client authentication first,
 * then the grant type's rules in OAuthTokenService. Every failure is an OAuthProtocolException.
 */
@inject()
export class OAuthTokenEndpointService {
  constructor(
    protected clients: OAuthClientService,
    protected tokens: OAuthTokenService
  ) {}

  /** `authorization_code` (with PKCE) or `refresh_token`; `authorization` is the request's header. */
  async token(input: Infer<typeof tokenRequestValidator>, authorization: string | undefined): Promise<OAuthTokenResponse> {
    if (input.grant_type !== 'authorization_code' && input.grant_type !== 'refresh_token') {
      throw new OAuthProtocolException('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.')
    }
    const client = await this.clients.authenticate(authorization, input.client_id, input.client_secret)
    if (input.grant_type === 'refresh_token') {
      if (!input.refresh_token) throw missing('refresh_token')
      return this.tokens.refresh(client, { refreshToken: input.refresh_token, scope: input.scope, resource: input.resource })
    }
    if (!input.code) throw missing('code')
    if (!input.code_verifier) throw missing('code_verifier (PKCE)')
    if (!CODE_VERIFIER.test(input.code_verifier)) {
      throw new OAuthProtocolException('invalid_request', 'code_verifier must be 43–128 unreserved characters.')
    }
    return this.tokens.exchangeCode(client, {
      code: input.code,
      codeVerifier: input.code_verifier,
      redirectUri: input.redirect_uri,
      resource: input.resource,
    })
  }

  /** Revokes a token of the authenticated client; unknown tokens are silently accepted. */
  async revoke(input: Infer<typeof revokeTokenValidator>, authorization: string | undefined): Promise<void> {
    const client = await this.clients.authenticate(authorization, input.client_id, input.client_secret)
    await this.tokens.revoke(client, input.token)
  }
}

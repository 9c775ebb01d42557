import { inject } from '@adonisjs/core'
import { mcpResource } from '#config/oauth'
import { OAuthTokenService } from '#services/oauth/oauth_token_service'
import { sameResource } from '#services/oauth/oauth_scopes'

/** What a valid OAuth access token grants /mcp. */
export interface OAuthAccessGrant {
  /** users.id of the one user the token may read. */
  userId: number
  externalUserId: string
  scopes: string[]
  clientId: string
  clientName: string
}

/**
 * The resource server's check of OAuth access tokens: the authorization server's
 * OAuthTokenService (unknown, expired or revoked → null), and the token must be for this
 * resource, `<APP_URL>/mcp` (RFC 8707 audience), so a token issued under another base URL fails.
 */
@inject()
export class OAuthAccessTokens {
  constructor(protected tokens: OAuthTokenService) {}

  /** The grant of a bearer value that is a valid access token for /mcp, else null. */
  async verify(token: string): Promise<OAuthAccessGrant | null> {
    const identity = await this.tokens.verifyAccessToken(token)
    if (!identity || !sameResource(identity.resource, mcpResource())) return null
    const { userId, externalUserId, scopes, clientId, clientName } = identity
    return { userId, externalUserId, scopes, clientId, clientName }
  }
}

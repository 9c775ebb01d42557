import { inject } from '@adonisjs/core'
import type { ContainerResolver } from '@adonisjs/core/container'
import { HttpContext } from '@adonisjs/core/http'

/** What a valid OAuth access token grants (the authorization server's answer). */
export interface OAuthAccessGrant {
  /** users.id of the one user the token may read. */
  userId: number
  externalUserId: string
  scopes: string[]
  clientId: string
  clientName: string
}

interface OAuthTokenVerifier {
  verifyAccessToken(token: string): Promise<OAuthAccessGrant | null>
}

const SERVICE_MODULE = '#services/oauth/oauth_token_service'

/**
 * The resource server's view of OAuth access tokens: asks the authorization server's
 * OAuthTokenService; null for every token while the installation has no authorization server.
 */
@inject()
export class OAuthAccessTokens {
  constructor(protected http: HttpContext) {}

  /** The grant of a bearer value that is a valid OAuth access token, else null. */
  async verify(token: string): Promise<OAuthAccessGrant | null> {
    const tokens = await this.verifier(this.http.containerResolver)
    return tokens ? tokens.verifyAccessToken(token) : null
  }

  protected async verifier(resolver: ContainerResolver<any>): Promise<OAuthTokenVerifier | null> {
    try {
      const module = (await import(SERVICE_MODULE)) as { OAuthTokenService: new (...args: any[]) => OAuthTokenVerifier }
      return (await resolver.make(module.OAuthTokenService)) as OAuthTokenVerifier
    } catch (error: any) {
      if (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'ERR_PACKAGE_IMPORT_NOT_DEFINED') return null
      throw error
    }
  }
}

import { inject } from '@adonisjs/core'
import OauthGrant from '#models/oauth_grant'
import { OAuthTokenService } from '#services/oauth/oauth_token_service'

/** The "Connected apps" page: the active grants and their revocation. */
@inject()
export class OAuthGrantService {
  constructor(protected tokens: OAuthTokenService) {}

  /** Active grants, newest first, with their client and user. */
  async listActive() {
    return OauthGrant.query().whereNull('revokedAt').preload('client').preload('user').orderBy('id', 'desc')
  }

  /** Revokes a grant and every token of it; null when no such active grant exists, else the client's name. */
  async revoke(id: number): Promise<string | null> {
    const grant = await OauthGrant.query().where('id', id).whereNull('revokedAt').preload('client').first()
    if (!grant) return null
    await this.tokens.revokeGrant(grant.id)
    return grant.client.name
  }
}

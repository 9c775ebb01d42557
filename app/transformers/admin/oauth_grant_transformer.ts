import { BaseTransformer } from '@adonisjs/core/transformers'
import type OauthGrant from '#models/oauth_grant'

/**
 * A connected app (an active OAuth grant) on the Connected apps page: the client, the user it
 * may read, its scopes and history; never a token or secret.
 */
export default class OauthGrantTransformer extends BaseTransformer<OauthGrant> {
  toObject() {
    const grant = this.resource
    return {
      id: grant.id,
      client_name: grant.client.name,
      client_id: grant.client.clientId,
      redirect_host: hostOf(grant.client.redirectUriList[0]),
      user_id: grant.user.externalId,
      scopes: grant.scopeList,
      created_at: grant.createdAt.toISO()!,
      last_used_at: grant.lastUsedAt?.toISO() ?? null,
    }
  }
}

function hostOf(uri: string | undefined): string | null {
  if (!uri) return null
  try {
    return new URL(uri).host
  } catch {
    return null
  }
}

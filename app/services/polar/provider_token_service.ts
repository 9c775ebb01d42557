import { inject } from '@adonisjs/core'
import encryption from '@adonisjs/core/services/encryption'
import type { DateTime } from 'luxon'
import User from '#models/user'
import { LocalTokenStore } from '#services/polar/local_token_store'

/**
 * Provider (Polar) tokens of users: stored encrypted with APP_KEY in `users.provider_token_encrypted`
 * (OAuth connect, sync trigger onboarding) or in the local configuration volume (`polar:auth`).
 * Tokens never appear in logs or responses.
 */
@inject()
export class ProviderTokenService {
  constructor(protected local: LocalTokenStore) {}

  /** The user's usable token: the one stored on the user, else the `polar:auth` token when it is theirs. */
  async tokenFor(user: User): Promise<string | null> {
    if (user.providerTokenEncrypted) {
      const token = encryption.decrypt<string>(user.providerTokenEncrypted)
      if (typeof token === 'string' && token !== '') return token
    }
    const local = await this.local.read()
    if (local && (local.polarUserId === user.polarUserId || local.polarUserId === user.externalId)) {
      return local.accessToken
    }
    return null
  }

  /** Stores a token encrypted on the user (replacing any previous one). */
  async store(user: User, token: string, expiresAt: DateTime | null = null): Promise<void> {
    user.providerTokenEncrypted = encryption.encrypt(token)
    user.providerTokenExpiresAt = expiresAt
    await user.save()
  }

  /** Forgets the token stored on the user. */
  async forget(user: User): Promise<void> {
    user.providerTokenEncrypted = null
    user.providerTokenExpiresAt = null
    await user.save()
  }

  /**
   * Active users that background sync can run for (a stored token, or the `polar:auth` user),
   * least recently synced first (never-synced users lead).
   */
  async connectedUsers(): Promise<User[]> {
    const local = await this.local.read()
    const query = User.query()
      .where('isActive', true)
      .where((q) => {
        q.whereNotNull('providerTokenEncrypted')
        if (local) q.orWhere('polarUserId', local.polarUserId).orWhere('externalId', local.polarUserId)
      })
    const users = await query
    return users.sort((a, b) => {
      const at = a.lastSyncedAt?.toMillis() ?? -Infinity
      const bt = b.lastSyncedAt?.toMillis() ?? -Infinity
      return at === bt ? a.id - b.id : at - bt
    })
  }
}

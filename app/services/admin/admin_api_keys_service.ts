import env from '#start/env'
import { ApiKeyService } from '#services/auth/api_key_service'
import { OpsTokenRegistry, type OpsPrincipal } from '#services/ops/ops_tokens'
import { inject } from '@adonisjs/core'
import ApiKey from '#models/api_key'
import type User from '#models/user'

/** The API keys page: analytics keys (managed here) and the configured ops tokens (names only). */
@inject()
export class AdminApiKeysService {
  constructor(protected keys: ApiKeyService) {}

  /** Every analytics key, newest first, with the user it is scoped to. */
  async list() {
    return this.keys.list()
  }

  /** The keys scoped to one user, newest first (the per-user page). */
  async listForUser(user: User) {
    return ApiKey.query().where('userId', user.id).preload('user').orderBy('id', 'desc')
  }

  /** Revokes a key only when it is scoped to `user`; false when no such active key exists. */
  async revokeForUser(user: User, prefix: string): Promise<boolean> {
    const key = await ApiKey.query().where('prefix', prefix).where('userId', user.id).whereNull('revokedAt').first()
    return key ? this.keys.revoke(prefix) : false
  }

  async create(name: string, userExternalId: string | null) {
    return this.keys.create(name, userExternalId)
  }

  async revoke(prefix: string) {
    return this.keys.revoke(prefix)
  }

  /** Ops tokens are configuration (OPS_TOKENS / OPS_TOKEN): names and scopes, never values. */
  opsTokens(): OpsPrincipal[] {
    const { registry } = OpsTokenRegistry.parse(env.get('OPS_TOKENS'), env.get('OPS_TOKEN'))
    return registry.list()
  }
}

import env from '#start/env'
import { ApiKeyService } from '#services/auth/api_key_service'
import { OpsTokenRegistry, type OpsPrincipal } from '#services/ops/ops_tokens'
import { inject } from '@adonisjs/core'

export interface ApiKeyRow {
  prefix: string
  name: string
  scope: string | null
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** The API keys page: analytics keys (managed here) and the configured ops tokens (names only). */
@inject()
export class AdminApiKeysService {
  constructor(protected keys: ApiKeyService) {}

  async list(): Promise<ApiKeyRow[]> {
    const keys = await this.keys.list()
    return keys.map((key) => ({
      prefix: key.prefix,
      name: key.name,
      scope: key.user?.externalId ?? null,
      created_at: key.createdAt.toISO()!,
      last_used_at: key.lastUsedAt?.toISO() ?? null,
      revoked_at: key.revokedAt?.toISO() ?? null,
    }))
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

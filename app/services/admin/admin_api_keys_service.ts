import env from '#start/env'
import { ApiKeyService } from '#services/auth/api_key_service'
import { OpsTokenRegistry, type OpsPrincipal } from '#services/ops/ops_tokens'
import { inject } from '@adonisjs/core'

/** The API keys page: analytics keys (managed here) and the configured ops tokens (names only). */
@inject()
export class AdminApiKeysService {
  constructor(protected keys: ApiKeyService) {}

  /** Every analytics key, newest first, with the user it is scoped to. */
  async list() {
    return this.keys.list()
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

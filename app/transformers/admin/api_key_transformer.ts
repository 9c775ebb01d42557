import { BaseTransformer } from '@adonisjs/core/transformers'
import type ApiKey from '#models/api_key'

/**
 * An analytics API key on the API keys page: its visible prefix, the user it
 * is scoped to (null for a service key) and its history; never the hash.
 */
export default class ApiKeyTransformer extends BaseTransformer<ApiKey> {
  toObject() {
    const key = this.resource
    return {
      prefix: key.prefix,
      name: key.name,
      scope: key.user?.externalId ?? null,
      created_at: key.createdAt.toISO()!,
      last_used_at: key.lastUsedAt?.toISO() ?? null,
      revoked_at: key.revokedAt?.toISO() ?? null,
    }
  }
}

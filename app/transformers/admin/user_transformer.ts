import { BaseTransformer } from '@adonisjs/core/transformers'
import type { AdminUserSummary } from '#services/admin/admin_users_service'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'

/** A row of the users page: connection state, stored records per type, the latest sync run. */
export default class UserTransformer extends BaseTransformer<AdminUserSummary> {
  toObject() {
    const { user, counts, lastRun } = this.resource
    return {
      user_id: user.externalId,
      display_name: user.displayName ?? null,
      connected: user.isConnected,
      active: Boolean(user.isActive),
      created_at: user.createdAt.toISO()!,
      last_synced_at: user.lastSyncedAt?.toISO() ?? null,
      counts,
      last_run: lastRun ? new SyncRunTransformer(lastRun).toObject() : null,
    }
  }
}

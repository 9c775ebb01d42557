import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'

/** An entry of the overview's user picker: the id with what tells users apart (display name, connection, last sync). */
export default class OverviewUserTransformer extends BaseTransformer<User> {
  toObject() {
    const user = this.resource
    return {
      user_id: user.externalId,
      display_name: user.displayName ?? null,
      connected: user.isConnected,
      last_synced_at: user.lastSyncedAt?.toISO() ?? null,
    }
  }
}

import { BaseTransformer } from '@adonisjs/core/transformers'
import type { DateTime } from 'luxon'
import type { UserDirectoryEntry } from '#services/users/user_directory_service'

const iso = (value: DateTime | null) => (value ? value.toUTC().toISO({ suppressMilliseconds: true }) : null)

/**
 * A user as discovery shows it: the admin's display name (null when none), connection state, whether a Polar account is bound, the span of
 * stored data, days with data per type and the latest sync run. No token or Polar id.
 */
export default class UserDirectoryTransformer extends BaseTransformer<UserDirectoryEntry> {
  toObject() {
    const { user, connection, dataDays, firstDataDate, lastDataDate, lastRun } = this.resource
    return {
      user_id: user.externalId,
      display_name: user.displayName ?? null,
      active: Boolean(user.isActive),
      connection,
      polar_account_bound: user.polarUserId !== null,
      connected_at: iso(user.connectedAt),
      created_at: iso(user.createdAt),
      first_data_date: firstDataDate,
      last_data_date: lastDataDate,
      data_days: dataDays,
      last_successful_sync_at: iso(user.lastSyncedAt),
      last_sync: lastRun
        ? {
            run_id: lastRun.id,
            status: lastRun.status,
            trigger: lastRun.trigger,
            started_at: iso(lastRun.startedAt),
            finished_at: iso(lastRun.finishedAt),
          }
        : null,
    }
  }
}

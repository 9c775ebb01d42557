import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Job } from '@adonisjs/queue'
import type { JobOptions } from '@adonisjs/queue/types'
import User from '#models/user'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import type { SyncTrigger } from '#services/sync/sync_engine'
import { UserSyncService } from '#services/sync/user_sync_service'

/** Payload of {@link SyncUserJob}: our internal user id (never a token). */
export interface SyncUserPayload {
  userId: number
  /** Window in days; SYNC_DAYS when absent. */
  days?: number
  trigger: SyncTrigger
}

/** Raised when a background sync stored nothing because every type failed. */
export class SyncJobFailedError extends Error {}

/**
 * Background sync of one user with their stored token (DESIGN §4), the same per-user code path as
 * the trigger endpoint. No automatic retries: the next scheduler interval is the retry, and a job
 * whose sync failed outright lands in `failed_jobs` (operations API: list and retry). A user whose
 * sync is already running elsewhere, or a sync stopped by Polar's rate limit, is skipped, not failed
 * (the `sync_runs` row records it).
 */
@inject()
export default class SyncUserJob extends Job<SyncUserPayload> {
  static options: JobOptions = {
    name: 'SyncUserJob',
    queue: 'default',
    maxRetries: 0,
    timeout: '30m',
  }

  constructor(protected userSync: UserSyncService) {
    super()
  }

  async execute(): Promise<void> {
    const { userId, days, trigger } = this.payload
    const user = await User.find(userId)
    if (!user || !user.isActive) {
      logger.info({ userId }, 'sync job skipped: user missing or inactive')
      return
    }
    try {
      const outcome = await this.userSync.sync(user, { days, trigger, jobId: this.context.jobId })
      if (outcome.status === 'rate_limited') {
        // An expected condition, not a broken job: the next interval syncs again after the reset.
        logger.warn({ userId, retryAfter: outcome.retryAfterSeconds }, 'sync job deferred: Polar rate limit')
        return
      }
      if (outcome.status === 'failed') {
        const reasons = [...new Set(Object.values(outcome.errors))].join(' | ')
        throw new SyncJobFailedError(`Sync of user ${user.externalId} failed: ${reasons}`)
      }
    } catch (error) {
      if (error instanceof SyncInProgressException) {
        logger.info({ userId }, 'sync job skipped: a sync of this user is already running')
        return
      }
      throw error
    }
  }
}

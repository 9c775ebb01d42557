import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Job } from '@adonisjs/queue'
import type { JobOptions } from '@adonisjs/queue/types'
import User from '#models/user'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import { ClockService } from '#services/clock_service'
import type { SyncOutcome, SyncTrigger } from '#services/sync/sync_engine'
import { UserSyncService } from '#services/sync/user_sync_service'
import { SyncRunService } from '#services/sync/sync_run_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import ProviderNotConnectedException from '#exceptions/provider_not_connected_exception'
import encryption from '@adonisjs/core/services/encryption'

/** Payload of {@link SyncUserJob}: our internal user id (never a token). */
export interface SyncUserPayload {
  userId: number
  /** Window in days; SYNC_DAYS when absent. */
  days?: number
  trigger: SyncTrigger
  /**
   * Scheduled syncs: epoch milliseconds (ClockService) at which the scheduler's next interval
   * begins. A sync deferred past it is dropped, since that interval enqueues the user again.
   */
  notAfter?: number
  /** The `queued` run of `POST …/sync/trigger?wait=false` that this job's sync starts. */
  runId?: number
  /**
   * That trigger's `X-Provider-Token`, encrypted with APP_KEY (as stored tokens are); stored on the
   * user after a sync that worked when the user has no token yet, like the synchronous trigger.
   */
  tokenEncrypted?: string
}

/** Raised when a background sync stored nothing because every type failed. */
export class SyncJobFailedError extends Error {}

/** Deferred syncs start up to this share of their wait later, so they do not all wake at the reset. */
const DEFER_JITTER_SHARE = 0.1
/** Upper bound of that spread in milliseconds. */
const DEFER_JITTER_MAX_MS = 30_000

/**
 * Background sync of one user with their stored token (DESIGN §4), the same per-user code path as
 * the trigger endpoint. No automatic retries: the next scheduler interval is the retry, and a job
 * whose sync failed outright lands in `failed_jobs` (operations API: list and retry). A user whose
 * sync is already running elsewhere, or a sync stopped by Polar's rate limit, is skipped, not failed
 * (the `sync_runs` row records it). A sync held back by the Polar budget (PolarBudgetService)
 * dispatches itself again for when the window resets: a new job, so it never counts as a failure.
 */
@inject()
export default class SyncUserJob extends Job<SyncUserPayload> {
  static options: JobOptions = {
    name: 'SyncUserJob',
    queue: 'default',
    maxRetries: 0,
    timeout: '30m',
  }

  constructor(
    protected userSync: UserSyncService,
    protected clock: ClockService,
    protected runs: SyncRunService,
    protected tokens: ProviderTokenService
  ) {
    super()
  }

  async execute(): Promise<void> {
    const { userId, days, trigger, runId } = this.payload
    const user = await User.find(userId)
    if (!user || !user.isActive) {
      logger.info({ userId }, 'sync job skipped: user missing or inactive')
      if (runId) await this.runs.closeQueued(runId, 'skipped', 'The user was deleted or deactivated before the sync started.')
      return
    }
    try {
      const token = this.payloadToken()
      const outcome = await this.userSync.sync(user, { days, trigger, jobId: this.context.jobId, runId, token })
      if (token && (outcome.status === 'success' || outcome.status === 'partial') && !user.providerTokenEncrypted) {
        await this.tokens.store(user, token)
      }
      if (outcome.status === 'rate_limited' && outcome.deferred) {
        await this.deferUntilReset(outcome)
        return
      }
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
        if (runId) await this.runs.closeQueued(runId, 'skipped', 'Another sync of this user was running.')
        return
      }
      if (runId) {
        const reason = error instanceof ProviderNotConnectedException ? error.message : 'The sync failed inside HRVault; the error was logged.'
        await this.runs.closeQueued(runId, 'failed', reason)
      }
      throw error
    }
  }

  /** The trigger's token of a queued sync (null when absent or no longer decryptable). */
  protected payloadToken(): string | null {
    if (!this.payload.tokenEncrypted) return null
    const token = encryption.decrypt<string>(this.payload.tokenEncrypted)
    return typeof token === 'string' && token !== '' ? token : null
  }

  /** Dispatches this sync again for when the budget window resets (unless the next interval is sooner). */
  protected async deferUntilReset(outcome: SyncOutcome) {
    const { userId, notAfter } = this.payload
    const waitMs = Math.max(1, outcome.retryAfterSeconds ?? 60) * 1000
    const delayMs = waitMs + Math.floor(Math.random() * Math.min(waitMs * DEFER_JITTER_SHARE, DEFER_JITTER_MAX_MS))
    if (notAfter !== undefined && this.clock.now().toMillis() + delayMs >= notAfter) {
      logger.info({ userId, retryAfter: outcome.retryAfterSeconds }, 'sync job dropped: Polar budget used up until the next interval')
      return
    }
    // The queued run is finished (rate_limited); the deferred sync records a run of its own.
    const { runId: _finished, ...payload } = this.payload
    const { jobId } = await SyncUserJob.dispatch(payload).in(delayMs).run()
    logger.info({ userId, retryAfter: outcome.retryAfterSeconds, jobId }, 'sync job deferred: Polar budget of its class used up')
  }
}

import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import lock from '@adonisjs/lock/services/main'
import env from '#start/env'
import type User from '#models/user'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import ProviderNotConnectedException from '#exceptions/provider_not_connected_exception'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { SyncEngine, type SyncOptions, type SyncOutcome, type SyncTrigger } from '#services/sync/sync_engine'

/**
 * Per-user lock lifetime. Short, and renewed every LOCK_RENEW_MS while the sync runs, so the lock
 * of a process that died mid-sync (SIGKILL, crash) expires within seconds and a retried job runs.
 */
const LOCK_TTL = '20s'
const LOCK_RENEW_MS = 5_000

/** Default window of a sync: SYNC_DAYS (28). */
export const defaultSyncDays = () => env.get('SYNC_DAYS') ?? 28

/** Lock key of a user's sync, shared by every process through the lock store (database or Redis). */
export const userSyncLockKey = (userId: number) => `sync:user:${userId}`

export interface UserSyncRequest {
  /** Token for this sync; when absent the user's stored token is used. */
  token?: string | null
  days?: number
  trigger: SyncTrigger
  jobId?: string | null
  /** The `queued` run this sync starts (SyncEngine). */
  runId?: number | null
  onProgress?: SyncOptions['onProgress']
}

/**
 * Runs one user's sync under the per-user lock (DESIGN §4: a second concurrent sync of the same
 * user, in any process, gets SyncInProgressException → 409). The trigger endpoint, the queue job
 * and `node ace sync` all go through here. Polar's `RateLimit-*` usage the sync saw last is shared
 * afterwards (ProviderRateLimitService), for the budget reserve of manual syncs.
 */
@inject()
export class UserSyncService {
  constructor(
    protected engine: SyncEngine,
    protected tokens: ProviderTokenService,
    protected providerLimits: ProviderRateLimitService
  ) {}

  async sync(user: User, request: UserSyncRequest): Promise<SyncOutcome> {
    const token = request.token ?? (await this.tokens.tokenFor(user))
    if (!token) throw new ProviderNotConnectedException(user.externalId)

    const userLock = lock.createLock(userSyncLockKey(user.id), LOCK_TTL)
    if (!(await userLock.acquireImmediately())) throw new SyncInProgressException(user.externalId)
    const renewal = setInterval(() => {
      userLock
        .extend(LOCK_TTL)
        .catch((error) => logger.warn({ err: error, userId: user.id }, 'could not renew the sync lock'))
    }, LOCK_RENEW_MS)
    renewal.unref()
    let outcome: SyncOutcome
    try {
      outcome = await this.engine.run(user, {
        token,
        days: request.days ?? defaultSyncDays(),
        trigger: request.trigger,
        jobId: request.jobId ?? null,
        runId: request.runId ?? null,
        onProgress: request.onProgress,
      })
    } finally {
      clearInterval(renewal)
      await userLock.release()
    }
    await this.providerLimits.recordUsage(outcome.rateLimit)
    return outcome
  }
}

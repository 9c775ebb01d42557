import { inject } from '@adonisjs/core'
import lock from '@adonisjs/lock/services/main'
import env from '#start/env'
import User from '#models/user'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import ProviderBudgetReservedException from '#exceptions/provider_budget_reserved_exception'
import RateLimitedException from '#exceptions/rate_limited_exception'
import SyncCooldownException from '#exceptions/sync_cooldown_exception'
import { RateLimitService, type RateLimitPolicy } from '#services/rate_limit_service'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { userSyncLockKey } from '#services/sync/user_sync_service'

/** SYNC_TRIGGER_COOLDOWN_SECONDS (60): minimum time between two manual syncs of one user; 0 turns it off. */
export const syncTriggerCooldownSeconds = () => Math.max(0, Math.floor(env.get('SYNC_TRIGGER_COOLDOWN_SECONDS') ?? 60))

/** POLAR_MANUAL_BUDGET_PERCENT (80): share of each Polar window manual syncs may use; 100 turns the reserve off. */
export const manualBudgetPercent = () => Math.min(100, Math.max(0, env.get('POLAR_MANUAL_BUDGET_PERCENT') ?? 80))

/** The per-user cooldown as a limiter policy: one manual sync per user and cooldown window. */
export const syncCooldownPolicy = (seconds: number): RateLimitPolicy => ({ bucket: 'sync_trigger', requests: 1, window: seconds })

/**
 * Admission of manual syncs (API trigger, admin Sync now), checked before anything is fetched or a
 * user is created. 1. Polar's budget reserve: while the latest reported usage of a window is at or
 * above POLAR_MANUAL_BUDGET_PERCENT of its limit, manual syncs get 503 until it resets, so
 * background sync keeps the rest. 2. The per-user cooldown, counted in the shared limiter store for
 * every key kind: one manual sync per user per SYNC_TRIGGER_COOLDOWN_SECONDS, else 429. Background
 * syncs and `node ace sync` never come here.
 */
@inject()
export class ManualSyncGuardService {
  constructor(
    protected rateLimits: RateLimitService,
    protected providerLimits: ProviderRateLimitService
  ) {}

  /**
   * Throws SyncInProgressException (409), ProviderBudgetReservedException (503) or
   * SyncCooldownException (429); else counts the sync.
   */
  async admit(externalId: string): Promise<void> {
    // A sync of this user already running anywhere stays a 409 (DESIGN §3), not a cooldown 429.
    const existing = await User.findBy('externalId', externalId)
    if (existing && (await lock.createLock(userSyncLockKey(existing.id)).isLocked())) {
      throw new SyncInProgressException(externalId)
    }

    const percent = manualBudgetPercent()
    if (percent < 100) {
      const reserved = await this.providerLimits.reservedWindows(percent)
      if (reserved.length > 0) {
        throw new ProviderBudgetReservedException(externalId, Math.max(...reserved.map((w) => w.resetsIn)), percent)
      }
    }

    const cooldown = syncTriggerCooldownSeconds()
    if (cooldown === 0) return
    try {
      await this.rateLimits.hitIfAvailable(syncCooldownPolicy(cooldown), externalId)
    } catch (error) {
      if (error instanceof RateLimitedException) throw new SyncCooldownException(externalId, error.headers)
      throw error
    }
  }
}

import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import lock from '@adonisjs/lock/services/main'
import env from '#start/env'
import SyncUserJob from '#jobs/sync_user_job'
import { ClockService } from '#services/clock_service'
import { PolarWebhookService } from '#services/polar/polar_webhook_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import type { SyncTrigger } from '#services/sync/sync_engine'

/** One job the scheduler enqueued. */
export interface ScheduledSync {
  userId: number
  externalId: string
  /** Milliseconds after the tick at which the job becomes runnable. */
  delayMs: number
  jobId: string
}

/** What one scheduler tick did. */
export interface SchedulerTick {
  /** Index of the interval (epoch milliseconds ÷ interval length). */
  slot: number
  /** `disabled` (SYNC_ENABLED=false), `taken` (another process already scheduled this slot) or `scheduled`. */
  outcome: 'disabled' | 'taken' | 'scheduled'
  jobs: ScheduledSync[]
}

/** SYNC_INTERVAL_MINUTES in milliseconds (at least one minute). */
export const syncIntervalMs = () => Math.max(1, env.get('SYNC_INTERVAL_MINUTES') ?? 60) * 60_000

/**
 * POLAR_RECONCILE_INTERVAL_MINUTES (a day) in milliseconds: the full sync's interval while the
 * Polar webhook is registered, when it only picks up what has no event (biosensing) or was missed.
 */
export const reconcileIntervalMs = () => Math.max(1, env.get('POLAR_RECONCILE_INTERVAL_MINUTES') ?? 1440) * 60_000

/**
 * Background sync scheduling (DESIGN §4). Time is cut into slots of SYNC_INTERVAL_MINUTES (of
 * POLAR_RECONCILE_INTERVAL_MINUTES while the Polar webhook is registered: events bring new data
 * within a minute, the full sync only reconciles); the first
 * tick of a slot in any process takes the lock `sync:schedule:<slot>` (database or Redis, held for
 * the whole slot) and enqueues one SyncUserJob per connected user, least recently synced first,
 * spread evenly over the interval. Every other tick of that slot, in any process, does nothing,
 * so each user is enqueued exactly once per interval however many processes run a scheduler.
 */
@inject()
export class SyncSchedulerService {
  constructor(
    protected clock: ClockService,
    protected tokens: ProviderTokenService,
    protected webhooks: PolarWebhookService
  ) {}

  /** The full sync's interval: SYNC_INTERVAL_MINUTES, or the reconciliation interval with webhooks. */
  async intervalMs(): Promise<number> {
    return (await this.webhooks.isActive()) ? reconcileIntervalMs() : syncIntervalMs()
  }

  /** True unless SYNC_ENABLED=false. */
  enabled(): boolean {
    return env.get('SYNC_ENABLED') ?? true
  }

  /** Runs one tick (cheap when the slot is already scheduled). */
  async tick(): Promise<SchedulerTick> {
    const intervalMs = await this.intervalMs()
    const slot = Math.floor(this.clock.now().toMillis() / intervalMs)
    if (!this.enabled()) return { slot, outcome: 'disabled', jobs: [] }

    // The interval is part of the key: slots of a day and of an hour never share a lock.
    const slotLock = lock.createLock(`sync:schedule:${intervalMs / 60_000}:${slot}`, intervalMs)
    if (!(await slotLock.acquireImmediately())) return { slot, outcome: 'taken', jobs: [] }

    const users = await this.tokens.connectedUsers()
    const spacing = users.length > 0 ? Math.floor(intervalMs / users.length) : 0
    const jobs: ScheduledSync[] = []
    for (const [index, user] of users.entries()) {
      const delayMs = index * spacing
      const dispatcher = SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' })
      const result = await (delayMs > 0 ? dispatcher.in(delayMs) : dispatcher).run()
      jobs.push({ userId: user.id, externalId: user.externalId, delayMs, jobId: result.jobId })
    }
    logger.info({ slot, users: jobs.length }, 'background syncs scheduled')
    return { slot, outcome: 'scheduled', jobs }
  }

  /**
   * Enqueues an immediate sync of one user (back-fill after a new connection, admin "Sync now") and
   * returns its queue job id. Without `days` the job syncs SYNC_DAYS when it runs.
   */
  async backfill(userId: number, days: number | undefined, trigger: SyncTrigger = 'connect'): Promise<string> {
    const result = await SyncUserJob.dispatch({ userId, trigger, ...(days ? { days } : {}) }).run()
    return result.jobId
  }
}

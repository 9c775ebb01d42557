import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import lock from '@adonisjs/lock/services/main'
import env from '#start/env'
import SyncUserJob from '#jobs/sync_user_job'
import { ClockService } from '#services/clock_service'
import { PolarWebhookService } from '#services/polar/polar_webhook_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { CALLS_PER_FULL_SYNC, SCHEDULE_PLANNING_SHARE, effectiveIntervalMs, requiredIntervalMs } from '#services/sync/polar_budget'
import { PolarBudgetService } from '#services/sync/polar_budget_service'
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

/** How the full sync's interval was chosen (see {@link SyncSchedulerService.plan}). */
export interface IntervalPlan {
  /** SYNC_INTERVAL_MINUTES, or POLAR_RECONCILE_INTERVAL_MINUTES while the webhook is registered. */
  configuredMs: number
  /** Shortest interval at which every connected user's full sync fits Polar's budget. */
  requiredMs: number
  /** The interval used: the configured one, or the smallest whole multiple of it ≥ `requiredMs`. */
  effectiveMs: number
  stretched: boolean
  webhook: boolean
  /** Active users with a stored token (one full sync each per interval). */
  users: number
  /** Polar's limits the plan used: [short, long], from its headers or from the formula. */
  limits: [number, number]
  limitSource: 'polar' | 'formula'
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
 * within a minute, the full sync only reconciles), stretched when the connected users' full syncs
 * would not fit Polar's budget at that pace (see {@link plan}); the first
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
    protected webhooks: PolarWebhookService,
    protected budget: PolarBudgetService
  ) {}

  /**
   * The full sync's interval: SYNC_INTERVAL_MINUTES (the reconciliation interval with webhooks),
   * unless U connected users × CALLS_PER_FULL_SYNC per interval would take more than
   * SCHEDULE_PLANNING_SHARE of a Polar window (the 24-hour one, 5 000 + 100·U, decides in practice):
   * then the smallest whole multiple of the configured interval at which they fit.
   */
  async plan(): Promise<IntervalPlan> {
    const webhook = await this.webhooks.isActive()
    const configuredMs = webhook ? reconcileIntervalMs() : syncIntervalMs()
    const [users, limits] = await Promise.all([this.budget.connectedUserCount(), this.budget.limits()])
    const requiredMs = requiredIntervalMs(users, limits.values, CALLS_PER_FULL_SYNC, SCHEDULE_PLANNING_SHARE)
    const effectiveMs = effectiveIntervalMs(configuredMs, requiredMs)
    return {
      configuredMs,
      requiredMs,
      effectiveMs,
      stretched: effectiveMs > configuredMs,
      webhook,
      users,
      limits: limits.values,
      limitSource: limits.source,
    }
  }

  /** The full sync's interval in use (see {@link plan}). */
  async intervalMs(): Promise<number> {
    return (await this.plan()).effectiveMs
  }

  /** True unless SYNC_ENABLED=false. */
  enabled(): boolean {
    return env.get('SYNC_ENABLED') ?? true
  }

  /** Runs one tick (cheap when the slot is already scheduled). */
  async tick(): Promise<SchedulerTick> {
    const plan = await this.plan()
    const intervalMs = plan.effectiveMs
    const slot = Math.floor(this.clock.now().toMillis() / intervalMs)
    if (!this.enabled()) return { slot, outcome: 'disabled', jobs: [] }

    // The interval is part of the key: slots of a day and of an hour never share a lock.
    const slotLock = lock.createLock(`sync:schedule:${intervalMs / 60_000}:${slot}`, intervalMs)
    if (!(await slotLock.acquireImmediately())) return { slot, outcome: 'taken', jobs: [] }

    if (plan.stretched) {
      logger.info(
        {
          users: plan.users,
          configuredMinutes: plan.configuredMs / 60_000,
          intervalMinutes: intervalMs / 60_000,
          requiredMinutes: Math.ceil(plan.requiredMs / 60_000),
          dailyLimit: plan.limits[1],
        },
        'sync interval stretched to fit the Polar budget'
      )
    }
    const users = await this.tokens.connectedUsers()
    const spacing = this.spacingMs(intervalMs, users.length)
    const notAfter = (slot + 1) * intervalMs
    const jobs: ScheduledSync[] = []
    for (const [index, user] of users.entries()) {
      const delayMs = index * spacing
      const dispatcher = SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler', notAfter })
      const result = await (delayMs > 0 ? dispatcher.in(delayMs) : dispatcher).run()
      jobs.push({ userId: user.id, externalId: user.externalId, delayMs, jobId: result.jobId })
    }
    logger.info({ slot, users: jobs.length }, 'background syncs scheduled')
    return { slot, outcome: 'scheduled', jobs }
  }

  /** Time between two users' jobs of one slot: the interval spread evenly. */
  protected spacingMs(intervalMs: number, users: number): number {
    return users > 0 ? Math.floor(intervalMs / users) : 0
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

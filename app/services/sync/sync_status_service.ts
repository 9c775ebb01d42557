import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { inject } from '@adonisjs/core'
import { OpsQueueService, type QueueCounts } from '#services/ops/queue_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { PolarBudgetService } from '#services/sync/polar_budget_service'
import { defaultSyncDays } from '#services/sync/user_sync_service'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'

/** One user's line in `sync:status`. */
export interface UserSyncStatus {
  externalId: string
  connected: boolean
  lastSyncedAt: string | null
  lastRun: {
    status: string
    trigger: string
    startedAt: string
    finishedAt: string | null
    records: number
    providerCalls: number
    errors: string[]
  } | null
}

/**
 * Background sync settings (the interval in use and why), Polar's request budget, the queued jobs,
 * and every user's connection state and latest sync run.
 */
@inject()
export class SyncStatusService {
  constructor(
    protected tokens: ProviderTokenService,
    protected scheduler: SyncSchedulerService,
    protected budget: PolarBudgetService,
    protected queue: OpsQueueService
  ) {}

  async status() {
    const plan = await this.scheduler.plan()
    const connected = new Set((await this.tokens.connectedUsers()).map((u) => u.id))
    const users = await User.query().orderBy('externalId')
    const latestIds = db.from('sync_runs').max('id as id').groupBy('user_id')
    const runs = await SyncRun.query().whereIn('id', latestIds)
    const byUser = new Map(runs.map((r) => [r.userId, r]))
    return {
      enabled: env.get('SYNC_ENABLED') ?? true,
      intervalMinutes: plan.effectiveMs / 60_000,
      interval: {
        configuredMinutes: plan.configuredMs / 60_000,
        requiredMinutes: Math.ceil(plan.requiredMs / 60_000),
        stretched: plan.stretched,
        webhook: plan.webhook,
        users: plan.users,
      },
      budget: await this.budget.budget(),
      queue: await this.queuedJobs(),
      days: defaultSyncDays(),
      role: env.get('HRVAULT_ROLE') ?? 'all',
      users: users.map((user): UserSyncStatus => {
        const run = byUser.get(user.id)
        const results = run?.results ? (JSON.parse(run.results) as Record<string, number>) : {}
        return {
          externalId: user.externalId,
          connected: connected.has(user.id),
          lastSyncedAt: user.lastSyncedAt?.toISO() ?? null,
          lastRun: run
            ? {
                status: run.status,
                trigger: run.trigger,
                startedAt: run.startedAt.toISO()!,
                finishedAt: run.finishedAt?.toISO() ?? null,
                records: Object.values(results).reduce((a, b) => a + b, 0),
                providerCalls: run.providerCalls,
                errors: run.errors ? Object.keys(JSON.parse(run.errors)) : [],
              }
            : null,
        }
      }),
    }
  }

  /** Jobs waiting or running on the default queue, null when the queue backend cannot be read. */
  protected async queuedJobs(): Promise<QueueCounts | null> {
    try {
      return (await this.queue.status()).queues.default ?? null
    } catch {
      return null
    }
  }
}

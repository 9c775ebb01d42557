import { inject } from '@adonisjs/core'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import ProviderBudgetReservedException from '#exceptions/provider_budget_reserved_exception'
import SyncCooldownException from '#exceptions/sync_cooldown_exception'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { ManualSyncGuardService } from '#services/sync/manual_sync_guard_service'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'
import type { SyncTrigger } from '#services/sync/sync_engine'

export type SyncStart =
  | { state: 'unknown_user' }
  | { state: 'not_connected' }
  | { state: 'running'; run: SyncRun }
  | { state: 'queued'; jobId: string }
  /** Refused by the per-user cooldown (429) or Polar's budget reserve (503); retry after `retryAfter` seconds. */
  | { state: 'refused'; status: 429 | 503; message: string; retryAfter: number }

export type SyncPoll = { state: 'unknown_user' } | { state: 'queued' } | { state: 'run'; run: SyncRun }

/**
 * Sync now from the admin UI (and the MCP tool trigger_sync): enqueues the scheduler's immediate
 * sync (the same per-user job, so the per-user lock, failed-job store and analytics hook apply) and
 * lets the caller poll the sync run the job records under its job id. A Sync now is a manual sync:
 * the same per-user cooldown and Polar budget reserve as the API trigger apply
 * (ManualSyncGuardService).
 */
@inject()
export class AdminSyncService {
  constructor(
    protected tokens: ProviderTokenService,
    protected scheduler: SyncSchedulerService,
    protected guard: ManualSyncGuardService
  ) {}

  /** `trigger` is what the sync run records: `admin` for the admin UI, `api` for an MCP client. */
  async start(externalId: string, days?: number, trigger: SyncTrigger = 'admin'): Promise<SyncStart> {
    const user = await User.findBy('externalId', externalId)
    if (!user) return { state: 'unknown_user' }
    if (!(await this.tokens.tokenFor(user))) return { state: 'not_connected' }
    const running = await SyncRun.query().where('userId', user.id).where('status', 'running').orderBy('id', 'desc').first()
    if (running) return { state: 'running', run: running }
    try {
      await this.guard.admit(externalId)
    } catch (error) {
      if (error instanceof SyncCooldownException || error instanceof ProviderBudgetReservedException) {
        const retryAfter = Number(error.headers['Retry-After'])
        return { state: 'refused', status: error.status as 429 | 503, message: error.message, retryAfter }
      }
      throw error
    }
    return { state: 'queued', jobId: await this.scheduler.backfill(user.id, days, trigger) }
  }

  /** The run recorded for a job (or "queued" while the worker has not picked it up). */
  async poll(externalId: string, jobId: string | undefined, runId: number | undefined): Promise<SyncPoll> {
    const user = await User.findBy('externalId', externalId)
    if (!user) return { state: 'unknown_user' }
    const query = SyncRun.query().where('userId', user.id)
    if (runId !== undefined) query.where('id', runId)
    else if (jobId !== undefined) query.where('jobId', jobId)
    else return { state: 'queued' }
    const run = await query.orderBy('id', 'desc').first()
    return run ? { state: 'run', run } : { state: 'queued' }
  }
}

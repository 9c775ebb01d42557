import { inject } from '@adonisjs/core'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'

export type SyncStart =
  | { state: 'unknown_user' }
  | { state: 'not_connected' }
  | { state: 'running'; run: SyncRun }
  | { state: 'queued'; jobId: string }

export type SyncPoll = { state: 'unknown_user' } | { state: 'queued' } | { state: 'run'; run: SyncRun }

/**
 * Sync now from the admin UI: enqueues the scheduler's immediate sync (the same per-user job, so
 * the per-user lock, failed-job store and analytics hook apply) and lets the page poll the sync
 * run the job records under its job id.
 */
@inject()
export class AdminSyncService {
  constructor(
    protected tokens: ProviderTokenService,
    protected scheduler: SyncSchedulerService
  ) {}

  async start(externalId: string, days?: number): Promise<SyncStart> {
    const user = await User.findBy('externalId', externalId)
    if (!user) return { state: 'unknown_user' }
    if (!(await this.tokens.tokenFor(user))) return { state: 'not_connected' }
    const running = await SyncRun.query().where('userId', user.id).where('status', 'running').orderBy('id', 'desc').first()
    if (running) return { state: 'running', run: running }
    return { state: 'queued', jobId: await this.scheduler.backfill(user.id, days, 'admin') }
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

import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import SyncRun from '#models/sync_run'
import type User from '#models/user'
import NotFoundException from '#exceptions/not_found_exception'
import { ClockService } from '#services/clock_service'
import { toPage, type Page, type PageRequest } from '#services/api/pagination'

/** Status of a run that is waiting on the queue (`POST …/sync/trigger?wait=false`). */
export const QUEUED = 'queued'

/**
 * The `sync_runs` of a user as the API serves them: newest first (by row id, the order runs were
 * created in), keyset-paginated, and one by id. Also creates and closes the `queued` run of a sync
 * that waits on the queue.
 */
@inject()
export class SyncRunService {
  constructor(protected clock: ClockService) {}

  async list(user: User, page: PageRequest): Promise<Page<SyncRun>> {
    const query = SyncRun.query().where('userId', user.id).orderBy('id', 'desc').limit(page.limit + 1)
    if (page.after !== null) query.where('id', '<', page.after)
    return toPage(await query, page.limit)
  }

  /** One run of the user; another user's run or an unknown id is a 404. */
  async find(user: User, runId: number): Promise<SyncRun> {
    const run = await SyncRun.query().where('userId', user.id).where('id', runId).first()
    if (!run) throw new NotFoundException(`Sync run ${runId} of user "${user.externalId}" was not found.`)
    return run
  }

  /** The row of a sync about to be queued: status `queued` until the job's sync starts it. */
  async createQueued(user: User, days: number, trigger: SyncRun['trigger']): Promise<SyncRun> {
    return SyncRun.create({ userId: user.id, trigger, status: QUEUED, days, providerCalls: 0, startedAt: this.clock.now() })
  }

  /**
   * Ends a run that is still `queued` because its job could not sync (user gone, no token, a sync
   * already running): status and the reason, so a client polling the run sees why.
   */
  async closeQueued(runId: number, status: 'failed' | 'skipped', reason: string): Promise<void> {
    const finishedAt = this.clock.now().toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .from('sync_runs')
      .where('id', runId)
      .where('status', QUEUED)
      .update({ status, errors: JSON.stringify({ sync: reason }), finished_at: finishedAt })
  }
}

import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Worker } from '@adonisjs/queue'
import { DateTime } from 'luxon'
import User from '#models/user'
import FailedJob from '#models/failed_job'
import SyncUserJob from '#jobs/sync_user_job'
import { OpsQueueService } from '#services/ops/queue_service'
import { createQueueWorker } from '#services/sync/background_runner'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { SyncSchedulerService, syncIntervalMs } from '#services/sync/sync_scheduler_service'
import {
  completeToken,
  eventually,
  freshDatabase,
  startSimulatorContext,
  type SimulatorContext,
} from '#tests/functional/sync/simulator_context'

/** The scheduler with SYNC_ENABLED forced on (the test runner sets SYNC_ENABLED=false). */
class EnabledScheduler extends SyncSchedulerService {
  enabled() {
    return true
  }
}

async function connectedUser(externalId: string, token: string, lastSyncedAt: DateTime | null = null) {
  const user = await User.create({ externalId, isActive: true, lastSyncedAt })
  await (await app.container.make(ProviderTokenService)).store(user, token)
  return user
}

test.group('Sync | background scheduler and jobs', (group) => {
  let ctx: SimulatorContext
  let worker: Worker | null = null
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15')
    const cleanup = await freshDatabase()
    return async () => {
      await worker?.stop()
      worker = null
      app.container.restore(SyncSchedulerService)
      await ctx.close()
      await cleanup()
    }
  })

  test('the scheduler enqueues one job per connected user, least recently synced first', async ({ assert }) => {
    app.container.swap(SyncSchedulerService, () => app.container.make(EnabledScheduler))
    const recent = await connectedUser('recent', completeToken('recent'), DateTime.now().minus({ hours: 1 }))
    const never = await connectedUser('never', completeToken('never'))
    const older = await connectedUser('older', completeToken('older'), DateTime.now().minus({ days: 2 }))
    await User.create({ externalId: 'unconnected', isActive: true })
    await connectedUser('inactive', completeToken('inactive')).then((u) => u.merge({ isActive: false }).save())

    const scheduler = await app.container.make(SyncSchedulerService)
    const tick = await scheduler.tick()
    assert.equal(tick.outcome, 'scheduled')
    assert.deepEqual(
      tick.jobs.map((j) => j.userId),
      [never.id, older.id, recent.id]
    )
    const spacing = Math.floor(syncIntervalMs() / 3)
    assert.deepEqual(
      tick.jobs.map((j) => j.delayMs),
      [0, spacing, 2 * spacing]
    )

    // Another tick in the same interval (any process) enqueues nothing.
    const again = await (await app.container.make(SyncSchedulerService)).tick()
    assert.equal(again.outcome, 'taken')
    assert.lengthOf(again.jobs, 0)

    const status = await (await app.container.make(OpsQueueService)).status()
    const queued = status.queues.default
    assert.equal(queued.pending + queued.delayed + queued.processing, 3)
  })

  test('SYNC_ENABLED=false schedules nothing', async ({ assert }) => {
    await connectedUser('idle', completeToken('idle'))
    const tick = await (await app.container.make(SyncSchedulerService)).tick()
    assert.equal(tick.outcome, 'disabled')
    assert.lengthOf(tick.jobs, 0)
  })

  test('a job syncs the user with the stored token on the queue worker', async ({ assert }) => {
    const user = await connectedUser('queued', completeToken('queued'))
    const { jobId } = await SyncUserJob.dispatch({ userId: user.id, days: 7, trigger: 'scheduler' }).run()
    worker = await createQueueWorker(1)
    void worker.start(['default'])
    const run = await eventually(() => db.from('sync_runs').where('user_id', user.id).whereNotNull('finished_at').first())
    assert.equal(run.status, 'success')
    assert.equal(run.job_id, jobId)
    assert.equal(run.trigger, 'scheduler')
    const [{ n }] = await db.from('daily_activities').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), 7)
  })

  test('a failed job appears in the failed-job store', async ({ assert }) => {
    const user = await connectedUser('broken', 'revoked_token_of_broken')
    const { jobId } = await SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' }).run()
    worker = await createQueueWorker(1)
    void worker.start(['default'])
    const failed = await eventually(() => FailedJob.query().where('jobId', jobId).first())
    assert.equal(failed.jobName, 'SyncUserJob')
    assert.equal(failed.queue, 'default')
    assert.deepEqual(JSON.parse(failed.payload), { userId: user.id, trigger: 'scheduler' })
    assert.match(failed.exception, /Re-authorise/)
    assert.notInclude(failed.exception, 'revoked_token_of_broken')
  })
})

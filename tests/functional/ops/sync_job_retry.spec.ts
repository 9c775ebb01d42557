import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import FailedJob from '#models/failed_job'
import SyncRun from '#models/sync_run'
import SyncUserJob from '#jobs/sync_user_job'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { createUser } from '#tests/helpers/fixtures'
import { completeToken, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { bearer, drainQueue, eventually, refreshQueueManager, useTestTokens } from '#tests/functional/ops/helpers'
import { truncateDatabase } from '#tests/helpers/database'

test.group('Ops | failed sync job', (group) => {
  let ctx: SimulatorContext
  group.setup(async () => {
    await refreshQueueManager()
    return useTestTokens()
  })
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15')
    const cleanup = await truncateDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  test('a background sync that failed is listed, then retried to success', async ({ client, assert }) => {
    const user = await createUser()
    await (await app.container.make(ProviderTokenService)).store(user, completeToken('ops_retry'))
    // Polar answers 500 everywhere: the sync stores nothing and the job fails for good.
    ctx.sim.setFault('*', { type: 'server_error', status: 500 })
    await SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' })
    await drainQueue()
    const failed = await eventually(() => FailedJob.query().where('job_name', 'SyncUserJob').first())
    assert.isNotNull(failed)

    const list = await client.get('/ops/queue/failed').header('Authorization', bearer('queue:read'))
    list.assertStatus(200)
    assert.lengthOf(list.body().failed_jobs, 1)
    const [entry] = list.body().failed_jobs
    assert.containsSubset(entry, { id: Number(failed!.id), queue: 'default', job_name: 'SyncUserJob' })
    assert.include(entry.exception, `Sync of user ${user.externalId} failed`)

    // Polar recovers; the retried job runs the whole sync again.
    ctx.sim.clearFaults()
    const retry = await client.post(`/ops/queue/retry/${entry.id}`).header('Authorization', bearer('queue:retry'))
    retry.assertStatus(200)
    assert.equal(retry.body().count, 1)
    await drainQueue()

    const runs = await SyncRun.query().where('user_id', user.id).orderBy('id', 'asc')
    assert.deepEqual(
      runs.map((run) => run.status),
      ['failed', 'success']
    )
    const [{ n }] = await db.from('sleep_records').where('user_id', user.id).count('* as n')
    assert.isAbove(Number(n), 0)
    const after = await client.get('/ops/queue/failed').header('Authorization', bearer('queue:read'))
    assert.deepEqual(after.body().failed_jobs, [])
  }).timeout(60_000)
})

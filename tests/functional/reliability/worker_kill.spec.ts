import { test } from '@japa/runner'
import type { ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import SyncRun from '#models/sync_run'
import SyncUserJob from '#jobs/sync_user_job'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'
import { createUser } from '#tests/helpers/fixtures'
import { startQueueWorkerProcess } from '#tests/helpers/queue_worker_process'
import { refreshQueueManager } from '#tests/functional/ops/helpers'
import { eventually } from '#tests/functional/sync/simulator_context'
import { duplicateKeys, userData } from '#tests/helpers/fuzz/sync_state'
import { emptyDatabase } from '#tests/helpers/database'

const TOKEN = 'worker_kill_bio_complete'
/** The queue's stalled-job threshold (boringnode default, config/queue.ts sets none): 30 s. */
const STALLED_THRESHOLD_MS = 30_000



async function stop(child: ChildProcess | null) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

async function dataRows(userId: number) {
  const [{ n }] = await db.from('sleep_records').where('user_id', userId).count('* as n')
  return Number(n)
}

test.group('Reliability | worker killed mid-sync', (group) => {
  let sim: PolarSimulator
  const children: ChildProcess[] = []
  group.setup(async () => {
    await refreshQueueManager()
  })
  group.each.setup(async () => {
    await emptyDatabase()
    // Slow answers, so the sync is still running when its worker is killed.
    sim = await startPolarSimulator({ latencyMs: 250 })
    app.container.swap(PolarClientFactory, () => new PolarClientFactory({ baseUrl: sim.url, authUrl: sim.authUrl, tokenUrl: sim.tokenUrl, retryDelayMs: 5 }))
    return async () => {
      for (const child of children) await stop(child)
      app.container.restore(PolarClientFactory)
      await sim.close()
      await emptyDatabase()
    }
  })

  test('the job is retried by another worker and the final state equals a clean sync', async ({ assert }) => {
    const output: string[] = []
    const victim = await createUser('worker_killed')
    const tokens = await app.container.make(ProviderTokenService)
    await tokens.store(victim, TOKEN)

    await SyncUserJob.dispatch({ userId: victim.id, trigger: 'scheduler' })
    const first = startQueueWorkerProcess(sim, output)
    children.push(first)

    // Kill the worker once the sync has stored some rows but not finished.
    await eventually(async () => (await dataRows(victim.id)) > 0 && (await SyncRun.query().where('userId', victim.id).where('status', 'running').first()), 60_000)
    const killedAfter = await dataRows(victim.id)
    await stop(first)
    assert.equal(first.signalCode, 'SIGKILL')
    const interrupted = await SyncRun.query().where('userId', victim.id).orderBy('id', 'asc').firstOrFail()
    assert.equal(interrupted.status, 'running', 'the worker died before the run finished')

    // A job is "stalled" once its worker stopped renewing it for the threshold; a new worker
    // recovers it on its first check.
    await sleep(STALLED_THRESHOLD_MS + 1_000)
    const second = startQueueWorkerProcess(sim, output)
    children.push(second)

    // Wait for a finished run; on the database queue, stop early once the job is gone without one.
    const usesDatabaseQueue = !process.env.REDIS_URL
    let gone = 0
    const finished = await eventually(async () => {
      const run = await SyncRun.query().where('userId', victim.id).whereIn('status', ['success', 'partial', 'failed']).first()
      if (run) return run
      if (usesDatabaseQueue) {
        const [{ n }] = await db.from('queue_jobs').count('* as n')
        gone = Number(n) === 0 ? gone + 1 : 0
        if (gone >= 20) throw new Error('job processed without a finished run')
      }
      return null
    }, 45_000).catch(() => null)
    if (!finished) {
      const locks = await db.from('locks').select('*').catch((e) => [String(e)])
      const jobs = usesDatabaseQueue ? await db.from('queue_jobs').select('id', 'status').catch((e) => [String(e)]) : 'in redis'
      const failedJobs = await db.from('failed_jobs').select('*').catch((e) => [String(e)])
      const runs = await SyncRun.query().where('userId', victim.id).select('id', 'status')
      assert.fail(
        `the retried job produced no finished sync run (rows before kill: ${killedAfter}); locks ${JSON.stringify(locks)}; jobs ${JSON.stringify(jobs)}; runs ${JSON.stringify(runs)}; failed ${JSON.stringify(failedJobs).slice(0, 600)}; worker output:\n${output.join('').slice(-2000)}`
      )
    }
    assert.equal(finished!.status, 'success')
    await stop(second)
    // The run the killed worker left behind is recorded as interrupted, not left running.
    await interrupted.refresh()
    assert.equal(interrupted.status, 'interrupted')

    // The final state equals a clean sync of the same provider data, without duplicates (the
    // Polar account is bound to one user: the clean user gets it once the killed one is gone).
    assert.deepEqual(await duplicateKeys('worker_killed'), [])
    const recovered = await userData('worker_killed')
    await victim.delete()
    const clean = await createUser('worker_clean')
    await (await app.container.make(UserSyncService)).sync(clean, { token: TOKEN, trigger: 'command' })
    assert.deepEqual(recovered, await userData('worker_clean'))
  }).timeout(180_000)
})

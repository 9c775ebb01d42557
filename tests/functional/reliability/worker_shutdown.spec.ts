import { test } from '@japa/runner'
import { freshDatabase } from '#tests/functional/sync/simulator_context'
import type { ChildProcess } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Job, Locator } from '@adonisjs/queue'
import SyncRun from '#models/sync_run'
import SyncUserJob from '#jobs/sync_user_job'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'
import { createUser } from '#tests/helpers/fixtures'
import { startQueueWorkerProcess } from '#tests/helpers/queue_worker_process'
import { createQueueWorker } from '#services/sync/background_runner'
import { drainQueueWorkers, trackQueueWorkers } from '#services/sync/worker_drain'
import { refreshQueueManager } from '#tests/functional/ops/helpers'
import { eventually } from '#tests/functional/sync/simulator_context'

const TOKEN = 'worker_shutdown_bio_complete'
/** Longest wait for the worker to exit after SIGTERM: the sync's remaining calls plus shutdown. */
const EXIT_BOUND_MS = 40_000

/** A job that runs until the test opens its gate. */
class GatedJob extends Job<{ key: string }> {
  static options = { name: 'ShutdownGatedJob', queue: 'default', maxRetries: 0 }
  static gates = new Map<string, () => void>()
  static finished: string[] = []

  async execute() {
    await new Promise<void>((resolve) => GatedJob.gates.set(this.payload.key, resolve))
    GatedJob.finished.push(this.payload.key)
  }
}
Locator.register('ShutdownGatedJob', GatedJob)



/** Resolves with the exit code and signal, or null when the child is still running after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: string | null } | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
  })
}

test.group('Reliability | worker stopped with SIGTERM mid-sync', (group) => {
  let sim: PolarSimulator
  const children: ChildProcess[] = []
  group.setup(async () => {
    await refreshQueueManager()
  })
  group.each.setup(async () => {
    // Empty tables (queue_jobs included: a job left by an earlier file would be picked up too).
    const cleanup = await freshDatabase()
    // Slow answers, so the sync is still running when the worker is told to stop.
    sim = await startPolarSimulator({ latencyMs: 150 })
    return async () => {
      for (const child of children) {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGKILL')
          await exitWithin(child, 5_000)
        }
      }
      await sim.close()
      await cleanup()
    }
  })

  test('the running sync finishes before the pool closes: no failed job, exit code 0', async ({ assert }) => {
    const output: string[] = []
    const user = await createUser('worker_sigterm')
    await (await app.container.make(ProviderTokenService)).store(user, TOKEN)
    await SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' })
    const worker = startQueueWorkerProcess(sim, output)
    children.push(worker)

    // SIGTERM once the sync is under way: its run row exists and Polar has been called.
    await eventually(async () => {
      const run = await SyncRun.query().where('userId', user.id).where('status', 'running').first()
      return run !== null && sim.requests.some((request) => request.path.startsWith('/v3/'))
    }, 60_000)
    worker.kill('SIGTERM')

    const exit = await exitWithin(worker, EXIT_BOUND_MS)
    const describe = async () =>
      `runs ${JSON.stringify(await SyncRun.query().where('userId', user.id).select('id', 'status', 'errors'))}; ` +
      `failed ${JSON.stringify(await db.from('failed_jobs').select('job_name', 'exception')).slice(0, 800)}; ` +
      `worker output:\n${output.join('').slice(-3000)}`
    assert.isNotNull(exit, `the worker still runs ${EXIT_BOUND_MS} ms after SIGTERM; ${await describe()}`)
    assert.deepEqual(exit, { code: 0, signal: null }, await describe())

    const [{ n: failed }] = await db.from('failed_jobs').count('* as n')
    assert.equal(Number(failed), 0, await describe())
    const runs = await SyncRun.query().where('userId', user.id)
    assert.lengthOf(runs, 1)
    assert.equal(runs[0].status, 'success', await describe())
    if (!process.env.REDIS_URL) {
      const left = await db.from('queue_jobs').whereNot('status', 'completed').select('status')
      assert.deepEqual(left, [], 'the job is completed (and removed), not failed or still active')
    }
  }).timeout(120_000)
})

test.group('Reliability | draining the queue workers of a process', (group) => {
  group.setup(async () => {
    await refreshQueueManager()
    trackQueueWorkers()
  })
  group.each.setup(() => freshDatabase())

  test('a drain stops taking jobs and waits for the running one, reporting a timeout while it runs', async ({ assert }) => {
    const worker = await createQueueWorker(2)
    void worker.start(['default'])
    await GatedJob.dispatch({ key: 'running' })
    await eventually(async () => GatedJob.gates.has('running'), 20_000)

    assert.isFalse(await drainQueueWorkers(300), 'the gated job is still running')
    await GatedJob.dispatch({ key: 'after-stop' })
    GatedJob.gates.get('running')!()
    assert.isTrue(await drainQueueWorkers())

    assert.deepEqual(GatedJob.finished, ['running'])
    assert.isFalse(GatedJob.gates.has('after-stop'), 'a stopped worker takes no new job')
    const [{ n: failed }] = await db.from('failed_jobs').count('* as n')
    assert.equal(Number(failed), 0)
    if (!process.env.REDIS_URL) {
      // The finished job is removed (the default retention); the one dispatched after the stop waits.
      const jobs = await db.from('queue_jobs').select('status')
      assert.deepEqual(jobs.map((job) => job.status), ['pending'])
    }
  }).timeout(60_000)
})

import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import AuditLog from '#models/audit_log'
import FailedJob from '#models/failed_job'
import { freshDatabase } from '#tests/functional/sync/simulator_context'
import { bearer, drainQueue, eventually, OpsProbeJob, refreshQueueManager, useTestTokens } from '#tests/functional/ops/helpers'

/** Dispatches a probe job that fails `failures` times, runs the worker, waits for the failure row. */
async function failedProbe(key: string, failures = 1) {
  OpsProbeJob.failuresLeft.set(key, failures)
  await OpsProbeJob.dispatch({ key })
  await drainQueue()
  return eventually(() => FailedJob.query().whereRaw('payload like ?', [`%${key}%`]).first())
}

test.group('Ops | queue', (group) => {
  group.setup(async () => {
    await refreshQueueManager()
    return useTestTokens()
  })
  // The worker and the queue backend use their own connections: truncate instead of a transaction.
  group.each.setup(async () => {
    OpsProbeJob.completed = []
    return freshDatabase()
  })

  test('queue status counts pending jobs on the real backend', async ({ client, assert }) => {
    await OpsProbeJob.dispatch({ key: 'waiting-1' })
    await OpsProbeJob.dispatch({ key: 'waiting-2' })
    const response = await client.get('/ops/queue').header('Authorization', bearer('queue:read'))
    response.assertStatus(200)
    assert.containsSubset(response.body(), { queues: { default: { pending: 2, processing: 0 } }, failed_count: 0 })
    assert.equal(response.body().connection, env.get('REDIS_URL') ? 'redis' : 'database')
    const budget = response.body().polar_budget
    assert.sameMembers(budget.windows.map((w: { window: string }) => w.window), ['short', 'long'])
    for (const window of budget.windows) assert.isAbove(window.limit, 0)
    await drainQueue()
    const after = await client.get('/ops/queue').header('Authorization', bearer('queue:read'))
    assert.containsSubset(after.body(), { queues: { default: { pending: 0, processing: 0 } } })
    assert.sameMembers(OpsProbeJob.completed, ['waiting-1', 'waiting-2'])
  })

  test('failed job exceptions are listed without secrets or absolute paths', async ({ client, assert }) => {
    const failed = await failedProbe('scrub-me')
    const secret = env.get('APP_KEY').release()
    failed!.exception = `Error: token ${secret} refused\n    at run (${app.makePath('app/jobs/x.ts')}:3:9)`
    await failed!.save()

    const list = await client.get('/ops/queue/failed').header('Authorization', bearer('queue:read'))
    list.assertStatus(200)
    const [entry] = list.body().failed_jobs
    assert.notInclude(entry.exception, secret)
    assert.notInclude(entry.exception, app.makePath())
    assert.include(entry.exception, '[redacted]')
    assert.include(entry.exception, './app/jobs/x.ts:3:9')
  })

  test('a failed job is listed, then retried to success', async ({ client, assert }) => {
    const failed = await failedProbe('retry-me')
    assert.isNotNull(failed)

    const status = await client.get('/ops/queue').header('Authorization', bearer('queue:read'))
    assert.equal(status.body().failed_count, 1)

    const list = await client.get('/ops/queue/failed').header('Authorization', bearer('queue:read'))
    list.assertStatus(200)
    const [entry] = list.body().failed_jobs
    assert.isTrue(Number.isInteger(entry.id))
    assert.containsSubset(entry, { id: Number(failed!.id), queue: 'default', job_name: 'OpsProbeJob' })
    assert.equal(entry.connection, env.get('REDIS_URL') ? 'redis' : 'database')
    assert.include(entry.exception, 'probe retry-me failed on purpose')
    assert.match(entry.failed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)

    const retry = await client.post(`/ops/queue/retry/${entry.id}`).header('Authorization', bearer('queue:retry'))
    retry.assertStatus(200)
    assert.containsSubset(retry.body(), { count: 1, retried: [{ id: entry.id, queue: 'default', job_name: 'OpsProbeJob' }] })
    assert.isString(retry.body().retried[0].job_id)
    assert.equal(await FailedJob.query().count('* as n').first().then((r) => Number(r!.$extras.n)), 0)

    await drainQueue()
    assert.deepEqual(OpsProbeJob.completed, ['retry-me'])
    const afterwards = await client.get('/ops/queue/failed').header('Authorization', bearer('queue:read'))
    assert.deepEqual(afterwards.body().failed_jobs, [])

    const audit = await AuditLog.query().where('action', 'queue.retry').firstOrFail()
    assert.containsSubset(audit.toJSON(), { actorType: 'ops_token', target: String(entry.id), outcome: 'success' })
    assert.match(audit.actor, /^test-q…$|…$/)
  })

  test('retry-all re-queues every failed job and reports them', async ({ client, assert }) => {
    await failedProbe('all-1')
    await failedProbe('all-2')
    const response = await client.post('/ops/queue/retry-all').header('Authorization', bearer('*'))
    response.assertStatus(200)
    assert.equal(response.body().count, 2)
    assert.lengthOf(response.body().retried, 2)
    await drainQueue()
    assert.sameMembers(OpsProbeJob.completed, ['all-1', 'all-2'])
    const audit = await AuditLog.query().where('action', 'queue.retry_all').firstOrFail()
    assert.equal(audit.actor, 'wildcard test token')
    assert.deepInclude(JSON.parse(audit.details!), { count: 2 })

    const empty = await client.post('/ops/queue/retry-all').header('Authorization', bearer('*'))
    empty.assertBody({ retried: [], count: 0 })
  })

  test('failed jobs are listed newest first and paged', async ({ client, assert }) => {
    await failedProbe('page-1')
    await failedProbe('page-2')
    await failedProbe('page-3')
    const first = await client
      .get('/ops/queue/failed')
      .qs({ per_page: 2 })
      .header('Authorization', bearer('queue:read'))
    first.assertStatus(200)
    assert.containsSubset(first.body(), { total: 3, page: 1, per_page: 2, last_page: 2 })
    const ids = first.body().failed_jobs.map((job: any) => job.id)
    assert.isAbove(ids[0], ids[1])
    const second = await client
      .get('/ops/queue/failed')
      .qs({ per_page: 2, page: 2 })
      .header('Authorization', bearer('queue:read'))
    assert.lengthOf(second.body().failed_jobs, 1)
    const bad = await client.get('/ops/queue/failed').qs({ per_page: 0 }).header('Authorization', bearer('queue:read'))
    bad.assertStatus(422)
  })

  test('retrying an unknown id is a 404 problem and is audited', async ({ client, assert }) => {
    const response = await client.post('/ops/queue/retry/424242').header('Authorization', bearer('queue:retry'))
    response.assertStatus(404)
    assert.include(response.header('content-type'), 'application/problem+json')
    assert.equal(response.body().code, 'E_OPS_FAILED_JOB_NOT_FOUND')
    const audit = await AuditLog.query().where('action', 'queue.retry').firstOrFail()
    assert.equal(audit.outcome, 'not_found')
  })

  test('a malformed id {$self} is a 422 problem')
    .with(['abc', '0', '-1', '1.5'])
    .run(async ({ client }, id) => {
      const response = await client.post(`/ops/queue/retry/${id}`).header('Authorization', bearer('queue:retry'))
      response.assertStatus(422)
    })
})

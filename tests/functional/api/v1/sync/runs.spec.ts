import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import SyncRun from '#models/sync_run'
import { createQueueWorker } from '#services/sync/background_runner'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { nextLink } from '#tests/helpers/pagination'
import { completeToken, eventually, simulatorPerTest } from '#tests/functional/sync/simulator_context'

const runsUrl = (userId: string) => `/api/v1/users/${userId}/sync/runs`

/** `n` finished runs of a user, oldest first (ids ascending). */
async function seedRuns(userId: number, n: number) {
  const start = DateTime.fromISO('2026-01-01T00:00:00Z')
  const rows = Array.from({ length: n }, (_, i) => ({
    userId,
    trigger: i % 2 === 0 ? 'scheduler' : 'api',
    status: 'success',
    days: 28,
    results: JSON.stringify({ sleep: i }),
    providerCalls: 20,
    startedAt: start.plus({ hours: i }),
    finishedAt: start.plus({ hours: i, seconds: 3 }),
  }))
  await SyncRun.createMany(rows)
}

test.group('API v1 | sync runs', (group) => {
  simulatorPerTest(group)

  test('the trigger answers run_id and duration_ms beside the spec fields; the run is listed and shown', async ({
    client,
    assert,
  }) => {
    const token = completeToken('runner')
    const sync = await client.post('/api/v1/users/runner/sync/trigger').qs({ days: 7 }).header('X-Provider-Token', token)
    sync.assertStatus(200)
    const result = sync.body()
    assert.equal(result.status, 'success')
    assert.equal(result.user_id, 'runner')
    assert.isObject(result.results)
    assert.isAbove(result.run_id, 0)
    assert.isAtLeast(result.duration_ms, 0)

    const list = await client.get(runsUrl('runner'))
    list.assertStatus(200)
    assert.isArray(list.body())
    assert.lengthOf(list.body(), 1)
    assert.notExists(list.header('link'))
    const run = list.body()[0]
    assert.equal(run.run_id, result.run_id)
    assert.equal(run.user_id, 'runner')
    assert.equal(run.trigger, 'api')
    assert.equal(run.status, 'success')
    assert.equal(run.days, 7)
    assert.match(run.started_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    assert.match(run.finished_at, /Z$/)
    assert.isAtLeast(run.duration_ms, 0)
    assert.deepEqual(run.results, result.results)
    assert.deepEqual(run.errors, {})
    assert.isAbove(run.provider_calls, 0)
    assert.isObject(run.rate_limit)
    assert.isArray(run.rate_limit.usage)
    assert.match(run.rate_limit.observed_at, /Z$/)

    const detail = await client.get(`${runsUrl('runner')}/${result.run_id}`)
    detail.assertStatus(200)
    assert.deepEqual(detail.body(), run)
  })

  test('pagination walks every run once, newest first, by limit and the Link cursor', async ({ client, assert }) => {
    const user = await createUser('walker')
    await seedRuns(user.id, 23)
    const seen: number[] = []
    let url: string | null = `${runsUrl('walker')}?limit=5`
    let pages = 0
    while (url) {
      const response = await client.get(url)
      response.assertStatus(200)
      assert.isArray(response.body())
      seen.push(...response.body().map((run: any) => run.run_id))
      url = nextLink(response.header('link'))
      if (url) assert.include(url, 'limit=5')
      pages++
    }
    assert.equal(pages, 5)
    assert.lengthOf(seen, 23)
    assert.deepEqual(seen, [...seen].sort((a, b) => b - a))
    assert.lengthOf(new Set(seen), 23)

    // Default page: 50; exactly one page of 23 has no Link.
    const all = await client.get(runsUrl('walker'))
    assert.lengthOf(all.body(), 23)
    assert.notExists(all.header('link'))
    const exact = await client.get(runsUrl('walker')).qs({ limit: 23 })
    assert.notExists(exact.header('link'))
  })

  test('bad limit, cursor or run id are 422 naming the parameter; unknown runs and users 404', async ({
    client,
    assert,
  }) => {
    const user = await createUser('checker')
    const other = await createUser('other')
    await seedRuns(other.id, 1)
    const otherRun = await SyncRun.query().where('userId', other.id).firstOrFail()
    await seedRuns(user.id, 1)

    for (const qs of [{ limit: 0 }, { limit: 1001 }, { limit: 'x' }, { cursor: 'not a cursor' }, { cursor: 'eyJ2IjoyfQ' }]) {
      const response = await client.get(runsUrl('checker')).qs(qs)
      response.assertStatus(422)
      assert.equal(response.header('content-type'), 'application/problem+json; charset=utf-8')
      const field = Object.keys(qs)[0]
      assert.isTrue(
        response.body().errors.some((e: any) => e.field === field),
        `${JSON.stringify(qs)} → ${JSON.stringify(response.body().errors)}`
      )
    }
    ;(await client.get(`${runsUrl('checker')}/abc`)).assertStatus(422)
    ;(await client.get(`${runsUrl('checker')}/0`)).assertStatus(422)

    const foreign = await client.get(`${runsUrl('checker')}/${otherRun.id}`)
    foreign.assertStatus(404)
    assert.equal(foreign.header('content-type'), 'application/problem+json; charset=utf-8')
    ;(await client.get(`${runsUrl('checker')}/999999`)).assertStatus(404)
    ;(await client.get(runsUrl('nobody'))).assertStatus(404)
  })

  test('a user-scoped key sees its own runs only', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await seedRuns(user.id, 2)
    const own = await client.get(runsUrl(user.externalId)).header('X-API-Key', apiKey)
    own.assertStatus(200)
    assert.lengthOf(own.body(), 2)
    const stranger = await createUser('stranger')
    ;(await client.get(runsUrl(stranger.externalId)).header('X-API-Key', apiKey)).assertStatus(403)
    const service = await serviceApiKey()
    ;(await client.get(runsUrl(stranger.externalId)).header('X-API-Key', service)).assertStatus(200)
  })

  test('wait=false answers 202 with the queued run at Location; the queue worker completes it', async ({
    client,
    assert,
    cleanup,
  }) => {
    const token = completeToken('later')
    const response = await client
      .post('/api/v1/users/later/sync/trigger')
      .qs({ wait: 'false', days: 5 })
      .header('X-Provider-Token', token)
    response.assertStatus(202)
    const location = response.header('location')!
    assert.match(location, /^\/api\/v1\/users\/later\/sync\/runs\/\d+$/)
    assert.equal(response.body().status, 'queued')
    assert.equal(response.body().trigger, 'api')
    assert.equal(response.body().days, 5)
    assert.isNull(response.body().finished_at)
    assert.equal(location, `${runsUrl('later')}/${response.body().run_id}`)

    const queued = await client.get(location)
    queued.assertStatus(200)
    assert.equal(queued.body().status, 'queued')

    const worker = await createQueueWorker(1)
    cleanup(() => worker.stop())
    void worker.start(['default'])
    const done = await eventually(async () => {
      const run = (await client.get(location)).body()
      return run.finished_at ? run : null
    })
    assert.equal(done.status, 'success')
    assert.equal(done.run_id, response.body().run_id)
    assert.isAbove(done.results.activity, 0)
    assert.isAbove(done.provider_calls, 0)
    assert.isAtLeast(done.duration_ms, 0)

    // One run only (the queued row was started, not duplicated); the token is kept for background sync.
    const list = await client.get(runsUrl('later'))
    assert.lengthOf(list.body(), 1)
    const stored = await SyncRun.findOrFail(done.run_id)
    assert.isNotNull(stored.jobId)
    assert.notInclude(JSON.stringify(list.body()), token)
  })

  test('wait=false checks what the synchronous trigger checks', async ({ client, assert }) => {
    const missing = await client.post('/api/v1/users/later2/sync/trigger').qs({ wait: 'false' })
    missing.assertStatus(400)
    const bad = await client.post('/api/v1/users/later2/sync/trigger').qs({ wait: 'maybe' }).header('X-Provider-Token', 'x')
    bad.assertStatus(422)
    assert.equal(bad.body().errors[0].field, 'wait')
    assert.equal(await SyncRun.query().count('* as n').first().then((r) => Number(r!.$extras.n)), 0)
  })
})

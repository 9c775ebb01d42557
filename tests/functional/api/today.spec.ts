import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import SyncRun from '#models/sync_run'
import { serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { daysAgo, NOW, seed, TODAY } from '#tests/functional/api/v1/analytics/helpers'
import { overreached } from '#tests/functional/api/v1/analytics/scenarios'
import { schemaViolations } from '#tests/functional/api/v1/records/helpers'
import { schemas } from '#openapi/paths/today'

const METRICS = ['hrv_rmssd', 'sleep_score', 'resting_hr', 'training_load', 'training_load_ratio']

type Owner = Awaited<ReturnType<typeof userWithApiKey>>

const get = (client: any, owner: Owner, path: string) =>
  client.get(`/api/v1/users/${owner.user.externalId}/${path}`).header('X-API-Key', owner.apiKey)

test.group('API | today', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(NOW))

  test('a user with 45 days of data: last night, today so far, values against baselines, what to look at, freshness', async ({
    client,
    assert,
  }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 45, overreached)
    await db.table('daily_activities').insert({ user_id: owner.user.id, date: TODAY, steps: 4321, created_at: new Date().toISOString() })
    const syncedAt = DateTime.fromISO(`${TODAY}T06:30:00Z`)
    owner.user.lastSyncedAt = syncedAt
    await owner.user.save()
    const run = await SyncRun.create({
      userId: owner.user.id,
      trigger: 'scheduler',
      status: 'success',
      days: 28,
      providerCalls: 12,
      startedAt: syncedAt.minus({ seconds: 20 }),
      finishedAt: syncedAt,
    })

    const response = await get(client, owner, 'today')
    response.assertStatus(200)
    const today = response.body()
    assert.equal(today.user_id, owner.user.externalId)
    assert.equal(today.date, TODAY)
    assert.equal(today.status, 'ready')
    assert.equal(today.sleep.date, TODAY)
    const last = overreached(0)
    assert.equal(today.sleep.sleep_score, Math.round(last.sleep!))
    assert.equal(today.sleep.hrv_avg, 30)
    assert.include(today.recharge, { date: TODAY, hrv_avg: 30, heart_rate_avg: 57 })
    assert.include(today.activity, { date: TODAY, steps: 4321 })
    assert.deepEqual(today.current_metrics, { hrv: 30, sleep_score: Math.round(last.sleep!), resting_hr: 57, training_load_ratio: 1.6 })
    assert.sameMembers(Object.keys(today.baselines), METRICS)
    for (const metric of METRICS) assert.equal(today.baselines[metric].status, 'ready', metric)
    assert.equal(today.baselines.hrv_rmssd.current, 30)
    assert.isBelow(today.baselines.hrv_rmssd.percent_of_baseline, 100)

    // The same anomalies, first observation and first suggestion as /insights.
    const insights = (await get(client, owner, 'insights')).body()
    assert.isAbove(today.anomalies.length, 0)
    assert.deepEqual(today.anomalies, insights.anomalies)
    assert.include(
      today.anomalies.map((a: { metric_name: string }) => a.metric_name),
      'hrv_rmssd'
    )
    assert.deepEqual(today.top_observation, insights.observations[0])
    assert.deepEqual(today.top_suggestion, insights.suggestions[0])
    assert.equal(today.generated_at, insights.generated_at)

    assert.deepEqual(today.freshness.last_sync, {
      run_id: run.id,
      status: 'success',
      started_at: `${TODAY}T06:29:40Z`,
      finished_at: `${TODAY}T06:30:00Z`,
    })
    assert.equal(today.freshness.last_synced_at, `${TODAY}T06:30:00Z`)
    assert.equal(today.freshness.newest_data_date, TODAY)
    assert.include(today.freshness.newest_data, { sleep: TODAY, recharge: TODAY, cardio_load: TODAY, activity: TODAY, ecg: null })

    assert.deepEqual(await schemaViolations(today, 'Today'), [])

    // Read-cached like every GET of a user's data: the same ETag, 304 on If-None-Match.
    const again = await get(client, owner, 'today')
    assert.equal(again.header('etag'), response.header('etag'))
    ;(await get(client, owner, 'today').header('If-None-Match', response.header('etag'))).assertStatus(304)
  })

  test('a new user without data: 200 with nulls, empty lists and status no_data', async ({ client, assert }) => {
    const owner = await userWithApiKey()
    const response = await get(client, owner, 'today')
    response.assertStatus(200)
    const today = response.body()
    assert.equal(today.status, 'no_data')
    assert.equal(today.date, TODAY)
    assert.isNull(today.sleep)
    assert.isNull(today.recharge)
    assert.isNull(today.activity)
    assert.deepEqual(today.current_metrics, { hrv: null, sleep_score: null, resting_hr: null, training_load_ratio: null })
    for (const metric of METRICS) {
      assert.deepEqual(today.baselines[metric], { status: 'insufficient', current: null, baseline: null, percent_of_baseline: null, trend: null })
    }
    assert.deepEqual(today.anomalies, [])
    // Insights' onboarding observation for a user without data.
    const insights = (await get(client, owner, 'insights')).body()
    assert.equal(today.top_observation.category, 'onboarding')
    assert.deepEqual(today.top_observation, insights.observations[0])
    assert.deepEqual(today.top_suggestion, insights.suggestions[0] ?? null)
    assert.isNull(today.freshness.last_synced_at)
    assert.isNull(today.freshness.last_sync)
    assert.isNull(today.freshness.newest_data_date)
    assert.isTrue(Object.values(today.freshness.newest_data).every((date) => date === null))
    assert.deepEqual(await schemaViolations(today, 'Today'), [])
  })

  test('before today’s night is synced: no last night, and freshness says which day is newest', async ({ client, assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 5, overreached, 1)
    const today = (await get(client, owner, 'today')).body()
    assert.equal(today.status, 'unavailable')
    assert.isNull(today.sleep)
    assert.isNull(today.recharge)
    assert.isNumber(today.current_metrics.hrv)
    assert.equal(today.freshness.newest_data.sleep, daysAgo(1))
    assert.equal(today.freshness.newest_data_date, daysAgo(1))
  })

  test('an unknown user is a 404, another user a 403, a query parameter a 422', async ({ client, assert }) => {
    const owner = await userWithApiKey()
    const other = await userWithApiKey()
    ;(await client.get('/api/v1/users/nobody/today').header('X-API-Key', await serviceApiKey())).assertStatus(404)
    ;(await client.get(`/api/v1/users/${other.user.externalId}/today`).header('X-API-Key', owner.apiKey)).assertStatus(403)
    const withDays = await get(client, owner, 'today').qs({ days: 7 })
    withDays.assertStatus(422)
    assert.equal(withDays.body().errors[0].field, 'days')
  })

  test('the documented example conforms to the documented schema', async ({ assert }) => {
    assert.deepEqual(await schemaViolations(schemas.Today.example, 'Today'), [])
  })
})

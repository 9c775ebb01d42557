import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createUser } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { NOW, seed, url } from './helpers.js'
import { steady } from './scenarios.js'

const FEATURES = [
  'basic_stats',
  'trend_analysis',
  'personalized_baselines',
  'predictive_models',
  'advanced_ml',
  'long_term_patterns',
]

test.group('API v1 analytics | analytics status', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a user without data has zero days and only locked features', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client.get(url(user.externalId, 'analytics/status'))
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(body.data_days, { sleep: 0, recharge: 0, activity: 0, cardio_load: 0 })
    assert.equal(body.min_data_days, 0)
    assert.deepEqual(Object.keys(body.features_available), FEATURES)
    assert.isTrue(Object.values(body.features_available).every((v) => v === false))
    assert.deepEqual(body.unlock_progress.basic_stats, {
      unlocked: false,
      days_required: 7,
      days_remaining: 7,
      progress_percent: 0,
    })
    assert.isArray(body.recommendations)
    assert.match(body.recommendations[0], /No data yet/)
  })

  test('min_data_days ignores sources without any data', async ({ client, assert }) => {
    const user = await createUser()
    // 10 days of sleep + recharge, 25 of activity, no cardio load.
    await seed(user.id, 10, (i) => ({ hrv: 50 + (i % 3), sleep: 80 }))
    await seed(user.id, 25, () => ({ activity: true }))
    const body = (await client.get(url(user.externalId, 'analytics/status'))).body()
    assert.deepEqual(body.data_days, { sleep: 10, recharge: 10, activity: 25, cardio_load: 0 })
    assert.equal(body.min_data_days, 10)
    assert.deepInclude(body.features_available, { basic_stats: true, trend_analysis: false })
    assert.deepEqual(body.unlock_progress.basic_stats, {
      unlocked: true,
      days_required: 7,
      days_remaining: 0,
      progress_percent: 100,
    })
    assert.deepEqual(body.unlock_progress.trend_analysis, {
      unlocked: false,
      days_required: 14,
      days_remaining: 4,
      progress_percent: 71.4,
    })
    assert.match(body.recommendations[0], /unlock in 4 days \(10 of 14 days of data\)/)
    assert.isTrue(body.recommendations.some((r: string) => r.includes('No cardio load data')))
  })

  test('90 days of every source unlock everything', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 90, steady)
    const body = (await client.get(url(user.externalId, 'analytics/status'))).body()
    assert.equal(body.min_data_days, 90)
    assert.isTrue(Object.values(body.features_available).every((v) => v === true))
    assert.equal(body.unlock_progress.long_term_patterns.progress_percent, 100)
    assert.match(body.recommendations[0], /All analytics features are unlocked/)
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createUser } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { NOW, seed, TODAY, url } from './helpers.js'
import { noisyDip, overreached, slightlyLow, steady, thriving, type Scenario } from './scenarios.js'

const CATEGORIES = ['recovery', 'sleep', 'training', 'anomaly', 'onboarding', 'trend']
const PRIORITIES = ['critical', 'high', 'medium', 'low', 'info', 'positive']

interface Observation {
  category: string
  priority: string
  fact: string
  context: string
  trend: string | null
}

async function insightsFor(client: any, days: number, scenario: Scenario) {
  const user = await createUser()
  await seed(user.id, days, scenario)
  const response = await client.get(url(user.externalId, 'insights'))
  response.assertStatus(200)
  return response.body()
}

const pairs = (observations: Observation[]) => observations.map((o) => `${o.category}/${o.priority}`)

test.group('API v1 analytics | insights status and unlocks', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('{0} days of data → {1}, next unlock {2} at {3}%')
    .with([
      [5, 'unavailable', 'baselines_7d', 71.4, 2],
      [10, 'partial', 'patterns', 47.6, 11],
      [25, 'ready', 'baselines_30d', 83.3, 5],
      [45, 'ready', 'ml_predictions', 75, 15],
      [90, 'ready', null, 100, 0],
    ] as const)
    .run(async ({ client, assert }, [days, status, next, percent, until]) => {
      const body = await insightsFor(client, days, steady)
      assert.equal(body.status, status)
      assert.equal(body.data_age_days, days)
      assert.deepEqual(body.unlock_progress, { next_unlock: next, days_until_next: until, percent_to_next: percent })
      assert.equal(body.data_freshness, `${TODAY}T00:00:00.000Z`)
      for (const [key, at] of Object.entries({
        baselines_7d: 7,
        baselines_30d: 30,
        patterns: 21,
        anomaly_detection: 21,
        ml_predictions: 60,
      })) {
        const feature = body.feature_availability[key]
        if (days >= at) {
          assert.isTrue(feature.available, key)
          assert.notProperty(feature, 'unlock_at_days')
        } else {
          const n = at - days
          assert.deepEqual(feature, {
            available: false,
            message: `Unlocks in ${n} day${n === 1 ? '' : 's'}`,
            unlock_at_days: at,
          })
        }
      }
    })

  test('unavailable: empty analytics and an onboarding observation', async ({ client, assert }) => {
    const body = await insightsFor(client, 5, steady)
    assert.deepEqual(body.baselines, {})
    assert.deepEqual(body.patterns, [])
    assert.deepEqual(body.anomalies, [])
    assert.deepEqual(pairs(body.observations), ['onboarding/info'])
    assert.equal(body.observations[0].fact, 'Building your personal baselines (5/7 days of data)')
    assert.equal(body.suggestions[0].action, 'keep_syncing')
    assert.isNumber(body.current_metrics.hrv)
  })

  test('partial: baselines without patterns or anomalies', async ({ client, assert }) => {
    const body = await insightsFor(client, 10, steady)
    assert.deepEqual(Object.keys(body.baselines), ['hrv_rmssd', 'sleep_score', 'resting_hr', 'training_load', 'training_load_ratio'])
    assert.equal(body.baselines.hrv_rmssd.status, 'partial')
    assert.deepEqual(body.patterns, [])
    assert.deepEqual(body.anomalies, [])
    assert.include(pairs(body.observations), 'onboarding/info')
    assert.match(body.observations.find((o: Observation) => o.category === 'onboarding').context, /unlock in 11 days/)
  })

  test('a user without data has no freshness and zero age', async ({ client, assert }) => {
    const user = await createUser()
    const body = (await client.get(url(user.externalId, 'insights'))).body()
    assert.notProperty(body, 'data_freshness')
    assert.equal(body.data_age_days, 0)
    assert.equal(body.status, 'unavailable')
    assert.deepEqual(body.current_metrics, { hrv: null, sleep_score: null, resting_hr: null, training_load_ratio: null })
  })

  test('current metrics ignore values older than 7 days', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 30, steady, 7)
    const body = (await client.get(url(user.externalId, 'insights'))).body()
    assert.deepEqual(body.current_metrics, { hrv: null, sleep_score: null, resting_hr: null, training_load_ratio: null })
    assert.isNull(body.baselines.hrv_rmssd.current)
  })
})

test.group('API v1 analytics | insights observations', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('overreached: anomalies, low HRV, high overtraining risk, declining trends', async ({ client, assert }) => {
    const body = await insightsFor(client, 45, overreached)
    const seen = pairs(body.observations)
    for (const pair of ['anomaly/critical', 'recovery/high', 'training/high', 'recovery/medium', 'trend/medium', 'sleep/low']) {
      assert.include(seen, pair)
    }
    const hrv = body.observations.find((o: Observation) => o.category === 'recovery' && o.priority === 'high')
    assert.match(hrv.fact, /^HRV is \d+% below your 30-day baseline \(30 ms vs \d+ ms\)$/)
    assert.equal(body.baselines.resting_hr.trend, 'declining')
    assert.equal(body.baselines.hrv_rmssd.trend, 'declining')
    const actions = body.suggestions.map((s: { action: string }) => s.action)
    assert.includeMembers(actions, ['monitor_closely', 'rest_day', 'prioritize_recovery'])
    assert.notInclude(actions, 'train_normally')
    // Sorted by priority, critical first.
    assert.equal(body.observations[0].priority, 'critical')
  })

  test('thriving: positive recovery, sleep, training and trends; correlation info', async ({ client, assert }) => {
    const body = await insightsFor(client, 45, thriving)
    const seen = pairs(body.observations)
    for (const pair of ['recovery/positive', 'training/positive', 'trend/positive', 'recovery/info']) {
      assert.include(seen, pair)
    }
    assert.equal(body.baselines.resting_hr.trend, 'improving')
    assert.equal(body.observations.at(-1).priority, 'positive')
  })

  test('slightly low: onboarding, medium recovery and sleep, low training, stable trends', async ({ client, assert }) => {
    const body = await insightsFor(client, 25, slightlyLow)
    const seen = pairs(body.observations)
    for (const pair of ['onboarding/low', 'recovery/medium', 'sleep/medium', 'training/low', 'trend/info']) {
      assert.include(seen, pair)
    }
    const actions = body.suggestions.map((s: { action: string }) => s.action)
    assert.includeMembers(actions, ['improve_sleep', 'increase_load_gradually'])
  })

  test('noisy dip: moderate overtraining risk and a non-significant decline', async ({ client, assert }) => {
    const body = await insightsFor(client, 45, noisyDip)
    const seen = pairs(body.observations)
    for (const pair of ['training/medium', 'trend/low', 'anomaly/high']) {
      assert.include(seen, pair)
    }
    const reduce = body.suggestions.find((s: { action: string }) => s.action === 'reduce_intensity')
    assert.isDefined(reduce)
    assert.isAtLeast(reduce.confidence, 0)
    assert.isAtMost(reduce.confidence, 1)
  })

  test('every observation category and priority is reachable', async ({ client, assert }) => {
    const all: Observation[] = []
    for (const [days, scenario] of [
      [5, steady],
      [45, overreached],
      [45, thriving],
      [25, slightlyLow],
      [45, noisyDip],
    ] as const) {
      const body = await insightsFor(client, days, scenario)
      all.push(...body.observations)
      for (const s of body.suggestions) {
        assert.isString(s.action)
        assert.isAbove(s.reason.length, 10)
        assert.isTrue(s.confidence >= 0 && s.confidence <= 1)
      }
    }
    assert.sameMembers([...new Set(all.map((o) => o.category))], CATEGORIES)
    assert.sameMembers([...new Set(all.map((o) => o.priority))], PRIORITIES)
  })
})

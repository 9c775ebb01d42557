import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createUser } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { NOW, seed, TODAY, url } from './helpers.js'

/**
 * Days 20 … 1 ago hold HRV 40 … 59 and today holds `today`. While `today` ≥ 59 it is the
 * maximum, so q1 = 45, q3 = 55 (IQR 10) whatever its value: warning above 70, critical above 85.
 */
const withToday = (today: number) => (i: number) => ({ hrv: i === 0 ? today : 60 - i })

test.group('API v1 analytics | anomaly scan', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('today at {0} → {1}')
    .with([
      [70, null],
      [70.5, 'warning'],
      [85, 'warning'],
      [85.5, 'critical'],
    ] as const)
    .run(async ({ client, assert }, [value, severity]) => {
      const user = await createUser()
      await seed(user.id, 21, withToday(value))
      await client.post(url(user.externalId, 'baselines/calculate'))
      const response = await client.get(url(user.externalId, 'anomalies'))
      response.assertStatus(200)
      const body = response.body()
      assert.equal(body.user_id, user.externalId)
      if (severity === null) {
        assert.deepEqual(body, { user_id: user.externalId, anomaly_count: 0, anomalies: [] })
        return
      }
      const mean = (990 + value) / 21
      assert.equal(body.anomaly_count, 1)
      assert.deepEqual(body.anomalies[0], {
        metric_name: 'hrv_rmssd',
        date: TODAY,
        current_value: value,
        baseline_value: mean,
        lower_bound: 30,
        upper_bound: 70,
        severity,
        direction: 'above',
        deviation_percent: Math.round(((value - mean) / mean) * 1000) / 10,
      })
    })

  test('a low value is reported below with a negative deviation', async ({ client, assert }) => {
    const user = await createUser()
    // Days 20 … 1: 41 … 60 (q1 46, q3 56 with today as the minimum); today 10.
    await seed(user.id, 21, (i) => ({ hrv: i === 0 ? 10 : 61 - i }))
    await client.post(url(user.externalId, 'baselines/calculate'))
    const [anomaly] = (await client.get(url(user.externalId, 'anomalies'))).body().anomalies
    assert.equal(anomaly.direction, 'below')
    assert.equal(anomaly.severity, 'critical')
    assert.isBelow(anomaly.deviation_percent, 0)
  })

  test('values older than 7 days are not scanned', async ({ client }) => {
    const user = await createUser()
    // The extreme value is 7 days old; nothing newer exists.
    await seed(user.id, 21, (i) => ({ hrv: i === 7 ? 500 : 40 + (i % 10) }), 7)
    await client.post(url(user.externalId, 'baselines/calculate'))
    const response = await client.get(url(user.externalId, 'anomalies'))
    response.assertBody({ user_id: user.externalId, anomaly_count: 0, anomalies: [] })
  })

  test('an insufficient baseline never produces an anomaly', async ({ client }) => {
    const user = await createUser()
    await seed(user.id, 6, (i) => ({ hrv: i === 0 ? 500 : 50 + i }))
    await client.post(url(user.externalId, 'baselines/calculate'))
    const response = await client.get(url(user.externalId, 'anomalies'))
    response.assertBody({ user_id: user.externalId, anomaly_count: 0, anomalies: [] })
  })

  test('a user without baselines has no anomalies; an unknown user is a 404', async ({ client }) => {
    const user = await createUser()
    const response = await client.get(url(user.externalId, 'anomalies'))
    response.assertBody({ user_id: user.externalId, anomaly_count: 0, anomalies: [] })
    const unknown = await client.get(url('nobody_here', 'anomalies'))
    unknown.assertStatus(404)
  })
})

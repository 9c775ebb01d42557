import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { createUser } from '#tests/helpers/fixtures'
import { METRIC_NAMES } from '#services/analytics/metrics'
import { pinClock } from '#tests/helpers/clock'
import { daysAgo, NOW, seed, TODAY, url } from './helpers.js'
import { steady } from './scenarios.js'

/** Day i (days ago) of HRV 60 - i: 21 days give 40 … 60, q1 45, q3 55, IQR 10. */
const ramp = (i: number) => ({ hrv: 60 - i })

test.group('API v1 analytics | baselines', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('{0} days of HRV give status {1}')
    .with([
      [6, 'insufficient'],
      [7, 'partial'],
      [20, 'partial'],
      [21, 'ready'],
    ] as const)
    .run(async ({ client, assert }, [days, status]) => {
      const user = await createUser()
      await seed(user.id, days, (i) => ({ hrv: 40 + (i % 9) }))

      const calc = await client.post(url(user.externalId, 'baselines/calculate'))
      calc.assertStatus(200)
      calc.assertBody({ user_id: user.externalId, baselines_calculated: { hrv_rmssd: status } })

      const show = await client.get(url(user.externalId, 'baselines/hrv_rmssd'))
      show.assertStatus(200)
      const body = show.body()
      assert.equal(body.status, status)
      assert.equal(body.sample_count, days)
      for (const field of ['q1', 'q3', 'iqr', 'std_dev', 'lower_bound', 'upper_bound']) {
        if (status === 'insufficient') assert.isNull(body[field], field)
        else assert.isNumber(body[field], field)
      }
      const row = await db.from('baselines').where('user_id', user.id).where('metric_name', 'hrv_rmssd').first()
      assert.equal(row.status, status)
    })

  test('a ready baseline has the DESIGN §4 statistics', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 21, ramp)
    await client.post(url(user.externalId, 'baselines/calculate'))
    const body = (await client.get(url(user.externalId, 'baselines/hrv_rmssd'))).body()
    assert.deepInclude(body, {
      metric_name: 'hrv_rmssd',
      baseline_value: 50,
      baseline_7d: 57,
      baseline_30d: 50,
      baseline_90d: null,
      median: 50,
      q1: 45,
      q3: 55,
      iqr: 10,
      min: 40,
      max: 60,
      lower_bound: 30,
      upper_bound: 70,
      sample_count: 21,
      status: 'ready',
      data_start_date: daysAgo(20),
      data_end_date: TODAY,
    })
    assert.closeTo(body.std_dev, Math.sqrt(38.5), 1e-12)
    assert.match(body.calculated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  test('the list holds every calculated metric in metric order', async ({ client, assert }) => {
    const user = await createUser()
    const before = await client.get(url(user.externalId, 'baselines'))
    before.assertStatus(200)
    before.assertBody([])
    await seed(user.id, 30, steady)
    const calc = await client.post(url(user.externalId, 'baselines/calculate'))
    assert.deepEqual(Object.keys(calc.body().baselines_calculated), [...METRIC_NAMES])
    const list = await client.get(url(user.externalId, 'baselines'))
    assert.deepEqual(
      list.body().map((b: { metric_name: string }) => b.metric_name),
      [...METRIC_NAMES]
    )
  })

  test('recalculating updates the stored row in place and drops metrics without values', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 10, (i) => ({ hrv: 50 + (i % 4), sleep: 80 }), 11)
    await client.post(url(user.externalId, 'baselines/calculate'))
    await seed(user.id, 11, (i) => ({ hrv: 50 + (i % 4) }))
    const calc = await client.post(url(user.externalId, 'baselines/calculate'))
    calc.assertBody({ user_id: user.externalId, baselines_calculated: { hrv_rmssd: 'ready', sleep_score: 'partial' } })
    const rows = await db.from('baselines').where('user_id', user.id).orderBy('metric_name')
    assert.deepEqual(
      rows.map((r) => [r.metric_name, r.status, Number(r.sample_count)]),
      [
        ['hrv_rmssd', 'ready', 21],
        ['sleep_score', 'partial', 10],
      ]
    )
    await db.from('sleep_records').where('user_id', user.id).delete()
    await client.post(url(user.externalId, 'baselines/calculate'))
    const after = await db.from('baselines').where('user_id', user.id)
    assert.deepEqual(after.map((r) => r.metric_name), ['hrv_rmssd'])
  })

  test('values older than 90 days leave no baseline', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 10, steady, 90)
    const calc = await client.post(url(user.externalId, 'baselines/calculate'))
    calc.assertBody({ user_id: user.externalId, baselines_calculated: {} })
    const missing = await client.get(url(user.externalId, 'baselines/sleep_score'))
    missing.assertStatus(404)
    missing.assertBodyContains({ status: 404, code: 'E_BASELINE_NOT_FOUND' })
    assert.lengthOf(await db.from('baselines').where('user_id', user.id), 0)
  })

  test('an unknown metric name is a 404 listing the valid names', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client.get(url(user.externalId, 'baselines/steps'))
    response.assertStatus(404)
    assert.match(response.header('content-type') ?? '', /application\/problem\+json/)
    response.assertBodyContains({ status: 404, code: 'E_UNKNOWN_METRIC', valid_names: [...METRIC_NAMES] })
    for (const name of METRIC_NAMES) assert.include(response.body().detail, name)
  })

  test('an unknown user is a 404', async ({ client }) => {
    const response = await client.get(url('nobody_here', 'baselines'))
    response.assertStatus(404)
    const calc = await client.post(url('nobody_here', 'baselines/calculate'))
    calc.assertStatus(404)
  })
})

test.group('API v1 analytics | baseline check', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('value {0} → anomaly {1}, severity {2}')
    .with([
      [50, false, null],
      [30, false, null],
      [29.99, true, 'warning'],
      [15, true, 'warning'],
      [14.99, true, 'critical'],
      [70, false, null],
      [70.01, true, 'warning'],
      [85, true, 'warning'],
      [85.01, true, 'critical'],
    ] as const)
    .run(async ({ client }, [value, isAnomaly, severity]) => {
      const user = await createUser()
      await seed(user.id, 21, ramp)
      await client.post(url(user.externalId, 'baselines/calculate'))
      const response = await client.get(url(user.externalId, `baselines/check/hrv_rmssd/${value}`))
      response.assertStatus(200)
      response.assertBody({
        value,
        metric_name: 'hrv_rmssd',
        is_anomaly: isAnomaly,
        severity,
        baseline: 50,
        baseline_7d: 57,
        lower_bound: 30,
        upper_bound: 70,
        status: 'ready',
      })
    })

  test('an insufficient baseline never flags a value', async ({ client }) => {
    const user = await createUser()
    await seed(user.id, 5, ramp)
    await client.post(url(user.externalId, 'baselines/calculate'))
    const response = await client.get(url(user.externalId, 'baselines/check/hrv_rmssd/1000'))
    response.assertStatus(200)
    response.assertBodyContains({ is_anomaly: false, severity: null, lower_bound: null, status: 'insufficient' })
  })

  test('a non-finite value {$self} is a 422')
    .with(['Infinity', '-Infinity', 'NaN', '1e400', 'abc'])
    .run(async ({ client }, value) => {
      const user = await createUser()
      await seed(user.id, 21, ramp)
      await client.post(url(user.externalId, 'baselines/calculate'))
      const response = await client.get(url(user.externalId, `baselines/check/hrv_rmssd/${value}`))
      response.assertStatus(422)
      response.assertBodyContains({ status: 422, errors: [{ field: 'value' }] })
    })

  test('an unknown metric or a missing baseline is a 404', async ({ client }) => {
    const user = await createUser()
    const unknown = await client.get(url(user.externalId, 'baselines/check/vo2max/50'))
    unknown.assertStatus(404)
    unknown.assertBodyContains({ code: 'E_UNKNOWN_METRIC' })
    const missing = await client.get(url(user.externalId, 'baselines/check/resting_hr/50'))
    missing.assertStatus(404)
    missing.assertBodyContains({ code: 'E_BASELINE_NOT_FOUND' })
  })
})

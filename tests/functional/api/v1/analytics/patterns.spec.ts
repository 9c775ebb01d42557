import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { createUser } from '#tests/helpers/fixtures'
import { PATTERN_NAMES } from '#services/analytics/metrics'
import { AnalyticsService } from '#services/analytics/analytics_service'
import { pinClock } from '#tests/helpers/clock'
import { sqlDuring } from '#tests/helpers/sql_log'
import { NOW, seed, url } from './helpers.js'
import { overreached, steady, thriving } from './scenarios.js'

interface SpearmanCase {
  name: string
  x: number[]
  y: number[]
  rho: number
  p_value: number
}
const fixture = JSON.parse(
  readFileSync(new URL('../../../../fixtures/stats/spearman.json', import.meta.url), 'utf8')
).cases as SpearmanCase[]
/** scipy.stats.spearmanr reference: 21 nights of integer sleep scores with ties. */
const n21 = fixture.find((c) => c.name === 'n21_ties')!

/** The fixture's pairs as days 20 … 0 ago. */
const fromFixture = (c: SpearmanCase, drop = 0) => (i: number) =>
  i < c.x.length - drop ? { sleep: c.x[c.x.length - 1 - i], hrv: c.y[c.y.length - 1 - i] } : {}

test.group('API v1 analytics | patterns', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('detect stores all four patterns and maps each to its significance', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 45, overreached)
    const response = await client.post(url(user.externalId, 'patterns/detect'))
    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      user_id: user.externalId,
      patterns_detected: {
        sleep_hrv_correlation: 'high',
        overtraining_risk: 'high',
        hrv_trend: 'high',
        sleep_trend: 'high',
      },
    })
    const rows = await db.from('patterns').where('user_id', user.id)
    assert.lengthOf(rows, 4)
    const list = (await client.get(url(user.externalId, 'patterns'))).body()
    assert.deepEqual(
      list.map((p: { pattern_name: string }) => p.pattern_name),
      [...PATTERN_NAMES]
    )
    for (const p of list) {
      assert.properties(p, [
        'pattern_type',
        'pattern_name',
        'score',
        'confidence',
        'significance',
        'metrics_involved',
        'sample_count',
        'details',
        'analyzed_at',
      ])
      assert.property(p.details, 'p_value')
    }
  })

  test('sleep_hrv_correlation equals scipy.stats.spearmanr', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 21, fromFixture(n21))
    await client.post(url(user.externalId, 'patterns/detect'))
    const response = await client.get(url(user.externalId, 'patterns/sleep_hrv_correlation'))
    response.assertStatus(200)
    const p = response.body()
    assert.equal(p.pattern_type, 'correlation')
    assert.deepEqual(p.metrics_involved, ['sleep_score', 'hrv_rmssd'])
    assert.equal(p.sample_count, 21)
    assert.closeTo(p.score, n21.rho, 1e-9)
    assert.closeTo(p.details.correlation_coefficient, n21.rho, 1e-9)
    assert.closeTo(p.details.p_value, n21.p_value, 1e-6)
    assert.closeTo(p.confidence, 1 - n21.p_value, 1e-4)
    assert.equal(p.significance, 'low')
    assert.include(p.details.interpretation, '21 nights')
  })

  test('20 same-night pairs are insufficient for the correlation', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 21, fromFixture(n21, 1))
    await client.post(url(user.externalId, 'patterns/detect'))
    const p = (await client.get(url(user.externalId, 'patterns/sleep_hrv_correlation'))).body()
    assert.equal(p.significance, 'insufficient')
    assert.isNull(p.score)
    assert.isNull(p.details.p_value)
    assert.equal(p.sample_count, 20)
    assert.include(p.details.reason, '21')
  })

  test('trends compare 7 with 30 days and carry a Welch p-value', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 45, thriving)
    await client.post(url(user.externalId, 'patterns/detect'))
    const hrv = (await client.get(url(user.externalId, 'patterns/hrv_trend'))).body()
    assert.equal(hrv.pattern_type, 'trend')
    assert.deepEqual(hrv.metrics_involved, ['hrv_rmssd'])
    assert.equal(hrv.details.direction, 'improving')
    assert.isAbove(hrv.score, 5)
    assert.isBelow(hrv.details.p_value, 0.01)
    assert.equal(hrv.significance, 'high')
    assert.closeTo(hrv.score, ((hrv.details.mean_7d - hrv.details.mean_30d) / hrv.details.mean_30d) * 100, 0.01)

    const other = await createUser()
    await seed(other.id, 45, steady)
    await client.post(url(other.externalId, 'patterns/detect'))
    const sleep = (await client.get(url(other.externalId, 'patterns/sleep_trend'))).body()
    assert.equal(sleep.details.direction, 'stable')
    assert.equal(sleep.significance, 'low')
  })

  test('overtraining risk adds the four factors', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 45, overreached)
    await client.post(url(user.externalId, 'patterns/detect'))
    const p = (await client.get(url(user.externalId, 'patterns/overtraining_risk'))).body()
    assert.equal(p.pattern_type, 'composite')
    assert.equal(p.score, 90)
    assert.equal(p.significance, 'high')
    assert.equal(p.confidence, 1)
    assert.equal(p.details.factors_checked, 4)
    assert.lengthOf(p.details.risk_factors, 4)
    assert.isAbove(p.details.recommendations.length, 0)
  })

  test('fewer than two factors make overtraining risk insufficient', async ({ client, assert }) => {
    const user = await createUser()
    await seed(user.id, 10, (i) => ({ ratio: i === 0 ? 1.6 : 1 }))
    await client.post(url(user.externalId, 'patterns/detect'))
    const p = (await client.get(url(user.externalId, 'patterns/overtraining_risk'))).body()
    assert.equal(p.significance, 'insufficient')
    assert.equal(p.details.factors_checked, 1)
    assert.equal(p.confidence, 0.25)
  })

  test('an unknown pattern name is a 404 listing the valid names', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client.get(url(user.externalId, 'patterns/recovery_readiness'))
    response.assertStatus(404)
    response.assertBodyContains({ code: 'E_UNKNOWN_PATTERN', valid_names: [...PATTERN_NAMES] })
    for (const name of PATTERN_NAMES) assert.include(response.body().detail, name)
  })

  test('a pattern not detected yet is a 404; the list is empty', async ({ client }) => {
    const user = await createUser()
    const response = await client.get(url(user.externalId, 'patterns/hrv_trend'))
    response.assertStatus(404)
    response.assertBodyContains({ code: 'E_PATTERN_NOT_FOUND' })
    const list = await client.get(url(user.externalId, 'patterns'))
    list.assertBody([])
  })

  test('the sync hook recomputes baselines and patterns', async ({ assert }) => {
    const user = await createUser()
    await seed(user.id, 30, steady)
    const analytics = await app.container.make(AnalyticsService)
    const version = async () => Number((await db.from('users').where('id', user.id).firstOrFail()).data_version)
    const before = await version()
    const statements = await sqlDuring(() => analytics.recomputeAfterSync(user.id))
    assert.lengthOf(await db.from('baselines').where('user_id', user.id), 5)
    assert.lengthOf(await db.from('patterns').where('user_id', user.id), 4)
    // Both written in one transaction: one commit, one data-version bump.
    assert.equal(await version(), before + 1)
    assert.lengthOf(statements.filter((sql) => /^\s*(begin|savepoint)/i.test(sql)), 1)
  })
})

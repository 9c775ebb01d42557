import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import InsightsTransformer from '#transformers/insights_transformer'
import { InsightsService, INSIGHTS_SNAPSHOTS_TABLE } from '#services/analytics/insights_service'
import { DataVersionService } from '#services/data_version_service'
import { upsertRows } from '#services/sync/queries'
import { createUser } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { daysAgo, NOW, seed, TODAY, url } from './helpers.js'
import { steady } from './scenarios.js'

/**
 * GET /insights keeps the answer it computed with the data version and context it was computed
 * from; it is served again only while both are current, so it always equals a computation now.
 */
test.group('API v1 analytics | insights snapshot', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('unchanged data: the same answer, computed once; it equals what a computation now gives', async ({ client, assert }) => {
    const pin = pinClock(NOW)
    try {
      const user = await createUser()
      await seed(user.id, 30, steady)
      const first = await client.get(url(user.externalId, 'insights'))
      first.assertStatus(200)
      // Later the same day, asked of the service (no response cache in between): the stored answer.
      pin.clock.set(`${TODAY}T15:00:00`)
      const insights = await app.container.make(InsightsService)
      const again = await insights.insightsJson(user.externalId)
      assert.equal(again, first.text())
      assert.equal(JSON.parse(again).generated_at, DateTime.fromISO(NOW, { zone: 'UTC' }).toISO())
      assert.lengthOf(await db.from(INSIGHTS_SNAPSHOTS_TABLE).where('user_id', user.id), 1)

      // Computed again at the time it was first computed: byte for byte the stored answer.
      pin.clock.set(NOW)
      const computed = new InsightsTransformer(await insights.insights(user.externalId)).toObject()
      assert.equal(JSON.stringify(computed), first.text())
    } finally {
      pin()
    }
  })

  test('a write of the user’s data, a new day and another user are each computed anew', async ({ client, assert }) => {
    const pin = pinClock(NOW)
    try {
      const user = await createUser()
      await seed(user.id, 30, steady)
      const first = (await client.get(url(user.externalId, 'insights'))).body()

      // The sync writes last night's recharge with a far lower HRV: the version moves, the answer follows.
      pin.clock.set(`${TODAY}T13:00:00`)
      await upsertRows(db.connection(), 'nightly_recharges', user.id, ['date'], [{ date: TODAY, hrvAvg: 5, heartRateAvg: 90 }], DateTime.utc())
      const afterWrite = (await client.get(url(user.externalId, 'insights'))).body()
      assert.notEqual(afterWrite.generated_at, first.generated_at)
      assert.notDeepEqual(afterWrite.current_metrics, first.current_metrics)

      // A plain SQL write with the version bump, as every writer makes it.
      pin.clock.set(`${TODAY}T14:00:00`)
      await db.transaction(async (trx) => {
        await trx.from('nightly_recharges').where({ user_id: user.id, date: daysAgo(1) }).update({ hrv_avg: 200 })
        await DataVersionService.bump(trx, user.id)
      })
      const afterSql = (await client.get(url(user.externalId, 'insights'))).body()
      assert.equal(afterSql.generated_at, DateTime.fromISO(`${TODAY}T14:00:00`, { zone: 'UTC' }).toISO())

      // The next day, nothing written: the day is part of what insights are computed from.
      pin.clock.set(`${daysAgo(-1)}T09:00:00`)
      const nextDay = (await client.get(url(user.externalId, 'insights'))).body()
      assert.equal(nextDay.generated_at, DateTime.fromISO(`${daysAgo(-1)}T09:00:00`, { zone: 'UTC' }).toISO())
      assert.equal(nextDay.data_age_days, afterSql.data_age_days)

      // Another user gets their own answer, never this one's.
      const other = await createUser()
      const theirs = (await client.get(url(other.externalId, 'insights'))).body()
      assert.equal(theirs.user_id, other.externalId)
      assert.equal(theirs.data_age_days, 0)
    } finally {
      pin()
    }
  })

  test('an unknown user is a 404 and nothing is stored', async ({ client, assert }) => {
    const response = await client.get(url('nobody-here', 'insights'))
    response.assertStatus(404)
    assert.lengthOf(await db.from(INSIGHTS_SNAPSHOTS_TABLE), 0)
  })
})

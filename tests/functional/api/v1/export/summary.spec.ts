import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { DailyActivityFactory } from '#database/factories/daily_activity_factory'
import { CardioLoadFactory } from '#database/factories/cardio_load_factory'
import { HeartRateDayFactory } from '#database/factories/heart_rate_day_factory'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { minusDays, schemaViolations } from '#tests/functional/api/v1/records/helpers'

const TODAY = '2026-03-01'

test.group('API v1 | export summary', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('counts each series in the window and sums them', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    const seed = async (userId: number, offsets: number[]) => {
      for (const n of offsets) {
        const date = minusDays(TODAY, n)
        await SleepRecordFactory.merge({ userId, date }).create()
        await NightlyRechargeFactory.merge({ userId, date }).create()
      }
    }
    await seed(user.id, [0, 1, 2, 29, 30])
    await seed(other.id, [0])
    for (const n of [0, 5]) await DailyActivityFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    await CardioLoadFactory.merge({ userId: user.id, date: TODAY }).create()
    await HeartRateDayFactory.merge({ userId: user.id, date: minusDays(TODAY, 31) }).create()
    for (const time of ['07:00:00', '18:00:00']) await ExerciseFactory.merge({ userId: user.id, startTime: `${TODAY} ${time}` }).create()

    const response = await client.get(`/api/v1/users/${user.externalId}/export/summary`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.deepEqual(await schemaViolations(response.body(), 'ExportSummary'), [])
    assert.deepEqual(response.body(), {
      user_id: user.externalId,
      days: 30,
      from_date: '2026-01-31',
      to_date: TODAY,
      record_counts: { sleep: 4, activity: 2, recharge: 4, cardio_load: 1, heart_rate: 0, exercises: 2 },
      total_records: 13,
    })

    const short = await client.get(`/api/v1/users/${user.externalId}/export/summary`).qs({ days: 1 }).header('X-API-Key', apiKey)
    assert.containsSubset(short.body(), {
      days: 1,
      from_date: TODAY,
      to_date: TODAY,
      record_counts: { sleep: 1, activity: 1, recharge: 1, cardio_load: 1, heart_rate: 0, exercises: 2 },
      total_records: 6,
    })
  })

  test('a user without data gets zero counts; days 1 and 365 accepted, 0, 366 and abc are 422', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const url = `/api/v1/users/${user.externalId}/export/summary`
    const year = await client.get(url).qs({ days: 365 }).header('X-API-Key', apiKey)
    year.assertStatus(200)
    assert.deepEqual(year.body(), {
      user_id: user.externalId,
      days: 365,
      from_date: '2025-03-02',
      to_date: TODAY,
      record_counts: { sleep: 0, activity: 0, recharge: 0, cardio_load: 0, heart_rate: 0, exercises: 0 },
      total_records: 0,
    })
    ;(await client.get(url).qs({ days: 1 }).header('X-API-Key', apiKey)).assertStatus(200)
    for (const days of ['0', '366', 'abc']) {
      const response = await client.get(url).qs({ days }).header('X-API-Key', apiKey)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, 'days')
    }
  })

  test('an unknown user is a 404 problem', async ({ client }) => {
    const key = await serviceApiKey()
    const response = await client.get('/api/v1/users/nobody_here/export/summary').header('X-API-Key', key)
    response.assertStatus(404)
    response.assertBodyContains({ status: 404, code: 'E_UNKNOWN_USER' })
  })
})

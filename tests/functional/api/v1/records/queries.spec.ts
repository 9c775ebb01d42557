import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import { ResponseCache } from '#services/response_cache'
import { userWithApiKey } from '#tests/helpers/fixtures'
import { sqlDuring } from '#tests/helpers/sql_log'
import { LIST_ROUTES } from '#tests/functional/api/v1/records/routes'
import { pinClock } from '#tests/helpers/clock'
import { minusDays } from '#tests/functional/api/v1/records/helpers'

const TODAY = '2026-03-01'
const EXPORTS = ['export/summary', 'export/sleep.csv', 'export/activity.csv', 'export/recharge.csv', 'export/cardio-load.csv']

/** Counts the SQL statements the application sends while `run` executes (read cache emptied first, so handlers run). */
async function countQueries(run: () => Promise<unknown>) {
  ;(await app.container.make(ResponseCache)).clear()
  return (await sqlDuring(run)).length
}

test.group('API v1 | query count', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('{path}: the same number of queries for 1 and 25 records (no N+1)')
    .with(LIST_ROUTES)
    .run(async ({ client, assert }, route) => {
      const few = await userWithApiKey()
      const many = await userWithApiKey()
      await route.seed(few.user.id, TODAY)
      for (let n = 0; n < 25; n++) await route.seed(many.user.id, minusDays(TODAY, n))
      const get = (who: typeof few) =>
        client.get(`/api/v1/users/${who.user.externalId}/${route.path}`).qs({ days: 30 }).header('X-API-Key', who.apiKey)
      // Warm both keys up (their last_used_at write happens once).
      await get(few)
      await get(many)
      const forFew = await countQueries(async () => assert.lengthOf((await get(few)).body(), 1))
      const forMany = await countQueries(async () => assert.lengthOf((await get(many)).body(), 25))
      assert.equal(forMany, forFew)
      assert.isAbove(forFew, 0)
    })

  test('{$self}: the same number of queries for 1 and 25 days of data')
    .with(EXPORTS)
    .run(async ({ client, assert }, path) => {
      // The sleep seed also stores the night's recharge.
      const seeded = LIST_ROUTES.filter((r) => ['sleep', 'activity', 'cardio-load', 'heart-rate', 'exercises'].includes(r.path))
      const seedDay = async (userId: number, date: string) => {
        for (const route of seeded) await route.seed(userId, date)
      }
      const few = await userWithApiKey()
      const many = await userWithApiKey()
      await seedDay(few.user.id, TODAY)
      for (let n = 0; n < 25; n++) await seedDay(many.user.id, minusDays(TODAY, n))
      const get = (who: typeof few) => client.get(`/api/v1/users/${who.user.externalId}/${path}`).header('X-API-Key', who.apiKey)
      await get(few)
      await get(many)
      const forFew = await countQueries(async () => (await get(few)).assertStatus(200))
      const forMany = await countQueries(async () => (await get(many)).assertStatus(200))
      assert.equal(forMany, forFew)
      assert.isAbove(forFew, 0)
    })
})

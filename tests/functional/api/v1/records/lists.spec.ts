import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { LIST_ROUTES } from '#tests/functional/api/v1/records/routes'
import { pinClock } from '#tests/helpers/clock'
import { minusDays, schemaViolations } from '#tests/functional/api/v1/records/helpers'

const TODAY = '2026-03-01'
const url = (userId: string, path: string) => `/api/v1/users/${userId}/${path}`

test.group('API v1 | raw-data lists', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('{path}: the default, days=1 and the maximum cover exactly N calendar days, newest first')
    .with(LIST_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      const other = await createUser()
      const { defaultDays: def, maxDays: max } = route
      const offsets = [...new Set([-1, 0, 1, 2, def - 1, def, max - 1, max])]
      for (const n of offsets) await route.seed(user.id, minusDays(TODAY, n))
      await route.seed(other.id, TODAY)

      const datesFor = async (query: Record<string, number>) => {
        const response = await client.get(url(user.externalId, route.path)).qs(query).header('X-API-Key', apiKey)
        response.assertStatus(200)
        return response.body().map(route.dateOf)
      }
      const expected = (days: number) =>
        offsets.filter((n) => n >= 0 && n < days).sort((a, b) => a - b).map((n) => minusDays(TODAY, n))

      assert.deepEqual(await datesFor({}), expected(def), 'default window')
      assert.deepEqual(await datesFor({ days: 1 }), [TODAY], 'days=1')
      assert.deepEqual(await datesFor({ days: max }), expected(max), `days=${max}`)
      assert.lengthOf(await datesFor({ days: max }), offsets.filter((n) => n >= 0 && n < max).length)
    })

  test('{path}: records carry exactly the documented fields with their JSON types')
    .with(LIST_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      await route.seed(user.id, TODAY)
      await route.seedEmpty(user.id, minusDays(TODAY, 1))
      const response = await client.get(url(user.externalId, route.path)).header('X-API-Key', apiKey)
      response.assertStatus(200)
      const records = response.body()
      assert.lengthOf(records, 2)
      for (const record of records) {
        assert.deepEqual(Object.keys(record), route.fields)
        assert.deepEqual(await schemaViolations(record, route.schema), [])
      }
      // The measured record has real values, so the type check is not vacuous.
      const measured = records[0]
      assert.isAbove(Object.values(measured).filter((value) => value !== null).length, route.fields.length / 2)
    })

  test('{path}: days=0, the maximum + 1, abc and 1.5 are 422 problems')
    .with(LIST_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      for (const days of ['0', String(route.maxDays + 1), 'abc', '1.5']) {
        const response = await client.get(url(user.externalId, route.path)).qs({ days }).header('X-API-Key', apiKey)
        response.assertStatus(422)
        assert.match(response.header('content-type') ?? '', /^application\/problem\+json/)
        assert.equal(response.body().errors[0].field, 'days')
      }
    })

  test('{path}: an unknown user is a 404 problem, a known user without data gets []')
    .with(LIST_ROUTES)
    .run(async ({ client, assert }, route) => {
      const key = await serviceApiKey()
      const unknown = await client.get(url('nobody_here', route.path)).header('X-API-Key', key)
      unknown.assertStatus(404)
      assert.match(unknown.header('content-type') ?? '', /^application\/problem\+json/)
      unknown.assertBodyContains({ status: 404, code: 'E_UNKNOWN_USER' })

      const user = await createUser()
      const empty = await client.get(url(user.externalId, route.path)).qs({ days: route.maxDays }).header('X-API-Key', key)
      empty.assertStatus(200)
      empty.assertBody([])
    })

  test('{path}: "today" turns at midnight in APP_TIMEZONE')
    .with(LIST_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      await route.seed(user.id, '2026-03-01')
      await route.seed(user.id, '2026-03-02')
      const datesAt = async (instant: string, days: number) => {
        pinClock(instant)
        const response = await client.get(url(user.externalId, route.path)).qs({ days }).header('X-API-Key', apiKey)
        response.assertStatus(200)
        return response.body().map(route.dateOf)
      }
      assert.deepEqual(await datesAt('2026-03-01T23:59:59.999', 1), ['2026-03-01'])
      assert.deepEqual(await datesAt('2026-03-02T00:00:00.000', 1), ['2026-03-02'])
      assert.deepEqual(await datesAt('2026-03-02T00:00:00.000', 2), ['2026-03-02', '2026-03-01'])
    })
})

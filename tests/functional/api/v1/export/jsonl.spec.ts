import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import app from '@adonisjs/core/services/app'
import { DatabaseCatalog } from '#services/database_catalog'
import { rowPages } from '#services/export/stored_rows'
import { DATA_TYPE_KEYS } from '#services/records/data_types'
import { pinClock } from '#tests/helpers/clock'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { minusDays } from '#tests/functional/api/v1/records/helpers'

const TODAY = '2026-03-01'

const lines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, any>)

test.group('API v1 | JSON Lines export', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('sleep.jsonl holds exactly the window, oldest first, every stored column in snake_case', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (const n of [0, 1, 2, 3]) await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n), sleepScore: 70 + n }).create()
    const other = await createUser()
    await SleepRecordFactory.merge({ userId: other.id, date: TODAY }).create()

    const response = await client.get(`/api/v1/users/${user.externalId}/export/sleep.jsonl`).qs({ days: 3 }).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.equal(response.header('content-type'), 'application/x-ndjson')
    assert.equal(
      response.header('content-disposition'),
      `attachment; filename="sleep_${user.externalId}_${minusDays(TODAY, 2)}_${TODAY}.jsonl"`
    )
    assert.isTrue(response.text().endsWith('\n'))
    const rows = lines(response.text())
    assert.deepEqual(
      rows.map((row) => row.date),
      [2, 1, 0].map((n) => minusDays(TODAY, n))
    )
    assert.deepEqual(
      rows.map((row) => row.sleep_score),
      [72, 71, 70]
    )
    assert.notProperty(rows[0], 'user_id')
    assert.isNumber(rows[0].id)
    assert.isArray(rows[0].hypnogram)
    assert.match(rows[0].created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    assert.containsSubset(rows[0], { light_sleep_seconds: rows[0].light_sleep_seconds, unrecognized_sleep_seconds: 0 })
  })

  test('booleans, nulls and zeros keep their JSON types', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await ExerciseFactory.merge({ userId: user.id, startDate: TODAY, hasRoute: true, distanceMeters: 0, trainingLoad: null }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/export/exercises.jsonl`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    const [row] = lines(response.text())
    assert.strictEqual(row.has_route, true)
    assert.strictEqual(row.distance_meters, 0)
    assert.isNull(row.training_load)
    assert.equal(row.start_date, TODAY)
  })

  test('every catalogued type has its file; an empty window is an empty body', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (const key of DATA_TYPE_KEYS) {
      const response = await client.get(`/api/v1/users/${user.externalId}/export/${key}.jsonl`).header('X-API-Key', apiKey)
      response.assertStatus(200)
      assert.equal(response.text(), '', key)
    }
  })

  test('repeated reads come from the read cache with an ETag (304), like the CSV files', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await SleepRecordFactory.merge({ userId: user.id, date: TODAY }).create()
    const url = `/api/v1/users/${user.externalId}/export/sleep.jsonl`
    const first = await client.get(url).header('X-API-Key', apiKey)
    first.assertStatus(200)
    // The first answer streams (its bytes are kept on the way); the next one comes from the cache.
    const cached = await client.get(url).header('X-API-Key', apiKey)
    cached.assertStatus(200)
    assert.equal(cached.text(), first.text())
    assert.equal(cached.header('content-type'), 'application/x-ndjson')
    const etag = cached.header('etag')!
    assert.match(etag, /^"/)
    const again = await client.get(url).header('X-API-Key', apiKey).header('If-None-Match', etag)
    again.assertStatus(304)
  })

  test('bad input is a problem: unknown type and days 422, unknown user 404, another user 403', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    const base = `/api/v1/users/${user.externalId}/export`
    for (const [path, field] of [
      [`${base}/nothing.jsonl`, 'type'],
      [`${base}/sleep.jsonl?days=0`, 'days'],
      [`${base}/sleep.jsonl?days=366`, 'days'],
      [`${base}/sleep.jsonl?days=abc`, 'days'],
    ]) {
      const response = await client.get(path).header('X-API-Key', apiKey)
      response.assertStatus(422)
      assert.match(response.header('content-type') ?? '', /^application\/problem\+json/)
      assert.equal(response.body().errors[0].field, field, path)
    }
    const service = await serviceApiKey()
    ;(await client.get('/api/v1/users/nobody_here/export/sleep.jsonl').header('X-API-Key', service)).assertStatus(404)
    ;(await client.get(`/api/v1/users/${other.externalId}/export/sleep.jsonl`).header('X-API-Key', apiKey)).assertStatus(403)
  })

  test('keyset pages read every row once, in (date, id) order, across ties on the date', async ({ assert }) => {
    const user = await createUser()
    for (let i = 0; i < 25; i++) await ExerciseFactory.merge({ userId: user.id, startDate: minusDays(TODAY, 4 - (i % 5)) }).create()
    const columns = await (await app.container.make(DatabaseCatalog)).columns('exercises')
    const pages: Array<Array<Record<string, any>>> = []
    // pageBytes 1: the smallest pages (10 rows), so the 25 rows take three queries.
    for await (const page of rowPages({ table: 'exercises', columns, userId: user.id, orderColumn: 'start_date', pageBytes: 1 })) {
      pages.push(page)
    }
    assert.deepEqual(
      pages.map((page) => page.length),
      [10, 10, 5]
    )
    const rows = pages.flat()
    const sorted = [...rows].sort((a, b) => a.start_date.localeCompare(b.start_date) || a.id - b.id)
    assert.deepEqual(
      rows.map((row) => row.id),
      sorted.map((row) => row.id)
    )
    assert.equal(new Set(rows.map((row) => row.id)).size, 25)
  })
})

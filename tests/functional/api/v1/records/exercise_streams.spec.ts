import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import ExerciseSample from '#models/exercise_sample'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { xsdErrors } from '#tests/helpers/xsd'

const PROBLEM = /^application\/problem\+json/

/**
 * The four routes of an exercise's samples, route and files on factory rows (in a global
 * transaction); what a sync stores and how the files validate is in
 * tests/functional/sync/exercise_streams.spec.ts.
 */
test.group('API v1 | exercise samples and files: ids, users and keys', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  const PATHS = (id: number | string) => [`exercises/${id}/samples`, `exercises/${id}/route`, `exercises/${id}/route.gpx`, `exercises/${id}.tcx`]

  test('an unknown id, or another user’s exercise, is a 404 problem on every route', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    const foreign = await ExerciseFactory.merge({ userId: other.id }).create()
    await ExerciseSample.create({
      userId: other.id,
      polarExerciseId: foreign.polarExerciseId,
      startTime: foreign.startTime,
      startDate: foreign.startDate,
      route: JSON.stringify({ time_seconds: [0, 1], latitude: [60, 60.0001], longitude: [25, 25.0001], satellites: [5, 5], fix: [1, 1] }),
      routePointCount: 2,
    })
    for (const path of [...PATHS(987654321), ...PATHS(foreign.id)]) {
      const response = await client.get(`/api/v1/users/${user.externalId}/${path}`).header('X-API-Key', apiKey)
      response.assertStatus(404)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      assert.equal(response.body().code, 'E_NOT_FOUND', path)
    }
  })

  test('id {$self} is a 422 problem on every route')
    .with(['abc', '0', '-1', '1.5', '99999999999999999999'])
    .run(async ({ client, assert }, id) => {
      const { user, apiKey } = await userWithApiKey()
      for (const path of PATHS(id)) {
        const response = await client.get(`/api/v1/users/${user.externalId}/${path}`).header('X-API-Key', apiKey)
        response.assertStatus(422)
        assert.match(response.header('content-type') ?? '', PROBLEM)
        assert.equal(response.body().errors[0].field, 'id', path)
      }
    })

  test('an unknown user is a 404 problem, another user’s key a 403', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const { user } = await userWithApiKey()
    const { apiKey: strangerKey } = await userWithApiKey()
    for (const path of PATHS(1)) {
      const unknown = await client.get(`/api/v1/users/nobody_here/${path}`).header('X-API-Key', key)
      unknown.assertStatus(404)
      assert.equal(unknown.body().code, 'E_UNKNOWN_USER')
      const forbidden = await client.get(`/api/v1/users/${user.externalId}/${path}`).header('X-API-Key', strangerKey)
      forbidden.assertStatus(403)
      assert.match(forbidden.header('content-type') ?? '', PROBLEM)
    }
  })

  test('a one-point route is a GeoJSON Point and a one-point GPX; the exercise row alone is enough for TCX', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const exercise = await ExerciseFactory.merge({ userId: user.id, startTime: '2026-02-28 18:30:00', startDate: '2026-02-28', startTimeUtcOffset: -300 }).create()
    await ExerciseSample.create({
      userId: user.id,
      polarExerciseId: exercise.polarExerciseId,
      startTime: exercise.startTime,
      startDate: exercise.startDate,
      startTimeUtcOffset: -300,
      samples: JSON.stringify([{ sample_type: 0, recording_rate_seconds: 5, data: [140, null] }]),
      route: JSON.stringify({ time_seconds: [4.6], latitude: [40.7128], longitude: [-74.006], satellites: [null], fix: [null] }),
      routePointCount: 1,
    })
    const get = (path: string) => client.get(`/api/v1/users/${user.externalId}/${path}`).header('X-API-Key', apiKey)
    const route = await get(`exercises/${exercise.id}/route`)
    route.assertStatus(200)
    assert.deepEqual(route.body().geometry, { type: 'Point', coordinates: [-74.006, 40.7128] })
    // 18:30 local at UTC−5 is 23:30 UTC; 4.6 s reads the sample at index 1 (a gap).
    assert.deepEqual(route.body().properties.times, ['2026-02-28T23:30:04.600Z'])
    assert.deepEqual(route.body().properties.heart_rates, [null])
    const gpx = await get(`exercises/${exercise.id}/route.gpx`)
    assert.deepEqual(await xsdErrors(gpx.text(), 'gpx'), [])
    assert.lengthOf(gpx.text().match(/<trkpt /g)!, 1)
    const tcx = await get(`exercises/${exercise.id}.tcx`)
    assert.deepEqual(await xsdErrors(tcx.text(), 'tcx'), [])
    assert.include(tcx.text(), '<Activity Sport="Running">')
  })
})

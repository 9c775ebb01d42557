import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import Exercise from '#models/exercise'
import ExerciseSample from '#models/exercise_sample'
import User from '#models/user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { PolarEventService } from '#services/sync/polar_event_service'
import { serviceApiKey } from '#tests/helpers/fixtures'
import { xsdErrors } from '#tests/helpers/xsd'
import { schemaViolations } from '#tests/functional/api/v1/records/helpers'
import { completeToken, simulatorPerTest, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
const PROBLEM = /^application\/problem\+json/

/** A GET against the simulator with the user's token: the wire truth the answers are compared with. */
async function wire(ctx: SimulatorContext, token: string, path: string): Promise<any> {
  const response = await fetch(`${ctx.sim.url}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  return response.json()
}

/** One stored outdoor (with route) and one indoor exercise of a synced user. */
async function twoExercises(userId: number) {
  const exercises = await Exercise.query().where('userId', userId).orderBy('startTime', 'desc')
  const outdoor = exercises.find((e) => Boolean(e.hasRoute))
  const indoor = exercises.find((e) => !e.hasRoute)
  if (!outdoor || !indoor) throw new Error('the simulated user needs an outdoor and an indoor exercise')
  return { outdoor, indoor }
}

test.group('Sync | exercise samples, route, GPX and TCX served from a simulated sync', (group) => {
  const context = simulatorPerTest(group, TODAY)

  /** Syncs 28 days for `name` (open mode), then creates a service key for the reads. */
  const syncedUser = async (client: any, name: string) => {
    const token = completeToken(name)
    const response = await client.post(`/api/v1/users/${name}/sync/trigger?days=28`).header('X-Provider-Token', token)
    response.assertStatus(200)
    const user = await User.findByOrFail('externalId', name)
    const key = await serviceApiKey()
    const get = (path: string) => client.get(`/api/v1/users/${name}/${path}`).header('X-API-Key', key)
    return { token, user, key, get, results: response.body().results }
  }

  test('a sync stores samples, zones and route with the one detail call per new exercise, and fetches none again', async ({ client, assert }) => {
    const ctx = context()
    const { user, results, token } = await syncedUser(client, 'streamer')
    const exercises = await Exercise.query().where('userId', user.id)
    assert.isAbove(exercises.length, 3)
    assert.equal(results.exercise_samples, results.exercises)
    const rows = await ExerciseSample.query().where('userId', user.id)
    assert.sameMembers(
      rows.map((r) => r.polarExerciseId),
      exercises.map((e) => e.polarExerciseId)
    )
    // One detail call per exercise, with the three flags; the sub-paths are never called.
    const details = ctx.sim.requestsTo('exercise_detail')
    assert.lengthOf(details, exercises.length)
    for (const call of details) assert.containsSubset(call.query, { samples: 'true', zones: 'true', route: 'true' })
    assert.isFalse(ctx.sim.requests.some((r) => /\/v3\/exercises\/[^/]+\/(samples|zones|heart-rate-zones)$/.test(r.path)))
    // Routes exactly for the outdoor sessions, each with the wire's point count.
    for (const exercise of exercises) {
      const row = rows.find((r) => r.polarExerciseId === exercise.polarExerciseId)!
      const detail = await wire(ctx, token, `/v3/exercises/${exercise.polarExerciseId}?route=true`)
      assert.equal(row.routePointCount, detail.route?.length ?? 0, exercise.polarExerciseId)
      assert.equal(row.routePointCount > 0, Boolean(exercise.hasRoute))
    }

    const detailCalls = ctx.sim.requestsTo('exercise_detail').length
    const again = await client.post('/api/v1/users/streamer/sync/trigger?days=28').header('X-Provider-Token', token).header('X-API-Key', await serviceApiKey('again'))
    again.assertStatus(200)
    assert.lengthOf(ctx.sim.requestsTo('exercise_detail'), detailCalls)
    assert.equal(again.body().results.exercise_samples, results.exercise_samples)
  })

  test('GET /samples serves the streams and zones as the wire has them', async ({ client, assert }) => {
    const ctx = context()
    const { user, token, get } = await syncedUser(client, 'sampler')
    const { outdoor } = await twoExercises(user.id)
    const response = await get(`exercises/${outdoor.id}/samples`)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(await schemaViolations(body, 'ExerciseSamples'), [])
    const detail = await wire(ctx, token, `/v3/exercises/${outdoor.polarExerciseId}?samples=true&zones=true&route=true`)
    assert.containsSubset(body, { id: outdoor.id, polar_exercise_id: outdoor.polarExerciseId, start_time: outdoor.startTime })
    assert.lengthOf(body.samples, detail.samples.length)
    for (const [i, stream] of detail.samples.entries()) {
      const served = body.samples[i]
      assert.equal(served.sample_type, Number(stream['sample-type']))
      assert.equal(served.recording_rate_seconds, stream['recording-rate'])
      assert.deepEqual(
        served.data,
        stream.data.split(',').map((v: string) => (v === 'null' ? null : Number(v)))
      )
      assert.equal(served.sample_count, served.data.length)
    }
    assert.equal(body.samples[0].name, 'heart_rate')
    assert.deepEqual(
      body.heart_rate_zones.map((z: any) => z.index),
      detail.heart_rate_zones.map((z: any) => z.index)
    )
    assert.equal(body.route_point_count, detail.route.length)
  })

  test('GET /route is GeoJSON; route.gpx is valid GPX 1.1 with the route’s point count; .tcx is valid TCX v2', async ({ client, assert }) => {
    const { user, get } = await syncedUser(client, 'mapper')
    const { outdoor } = await twoExercises(user.id)

    const route = await get(`exercises/${outdoor.id}/route`)
    route.assertStatus(200)
    assert.match(route.header('content-type') ?? '', /^application\/geo\+json/)
    const feature = route.body()
    assert.deepEqual(await schemaViolations(feature, 'ExerciseRoute'), [])
    assert.equal(feature.geometry.type, 'LineString')
    const pointCount = feature.properties.point_count
    assert.isAbove(pointCount, 100)
    assert.lengthOf(feature.geometry.coordinates, pointCount)
    assert.lengthOf(feature.properties.times, pointCount)
    const [lon, lat, altitude] = feature.geometry.coordinates[0]
    assert.isTrue(Math.abs(lon) <= 180 && Math.abs(lat) <= 90 && typeof altitude === 'number')

    const gpx = await get(`exercises/${outdoor.id}/route.gpx`)
    gpx.assertStatus(200)
    assert.match(gpx.header('content-type') ?? '', /^application\/gpx\+xml/)
    assert.equal(gpx.header('content-disposition'), `attachment; filename="exercise_${outdoor.id}_${outdoor.startDate}.gpx"`)
    const gpxText = gpx.text()
    assert.deepEqual(await xsdErrors(gpxText, 'gpx'), [])
    assert.lengthOf(gpxText.match(/<trkpt /g) ?? [], pointCount)
    assert.include(gpxText, `<trkpt lat="${lat}" lon="${lon}">`)
    assert.include(gpxText, `<time>${feature.properties.times[1]}</time>`)
    assert.match(gpxText, /<gpxtpx:hr>\d+<\/gpxtpx:hr>/)

    const tcx = await get(`exercises/${outdoor.id}.tcx`)
    tcx.assertStatus(200)
    assert.match(tcx.header('content-type') ?? '', /^application\/vnd\.garmin\.tcx\+xml/)
    assert.equal(tcx.header('content-disposition'), `attachment; filename="exercise_${outdoor.id}_${outdoor.startDate}.tcx"`)
    const tcxText = tcx.text()
    assert.deepEqual(await xsdErrors(tcxText, 'tcx'), [])
    const sport = outdoor.sport === 'RUNNING' ? 'Running' : outdoor.sport === 'CYCLING' ? 'Biking' : 'Other'
    assert.include(tcxText, `<Activity Sport="${sport}">`)
    assert.lengthOf(tcxText.match(/<Trackpoint>/g) ?? [], pointCount)
    assert.lengthOf(tcxText.match(/<Position>/g) ?? [], pointCount)
    assert.include(tcxText, `<Calories>${outdoor.calories}</Calories>`)
  })

  test('an indoor exercise: samples and TCX without positions; route and route.gpx are 404 problems', async ({ client, assert }) => {
    const { user, get } = await syncedUser(client, 'indoors')
    const { indoor } = await twoExercises(user.id)
    ;(await get(`exercises/${indoor.id}/samples`)).assertStatus(200)
    for (const path of [`exercises/${indoor.id}/route`, `exercises/${indoor.id}/route.gpx`]) {
      const response = await get(path)
      response.assertStatus(404)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      assert.containsSubset(response.body(), { status: 404, code: 'E_NOT_FOUND' })
      assert.match(response.body().detail, /no GPS route/)
    }
    const tcx = await get(`exercises/${indoor.id}.tcx`)
    tcx.assertStatus(200)
    const text = tcx.text()
    assert.deepEqual(await xsdErrors(text, 'tcx'), [])
    assert.isAbove((text.match(/<Trackpoint>/g) ?? []).length, 10)
    assert.notInclude(text, '<Position>')
  })

  test('files and GeoJSON are cached like every read: ETag on the next request, 304, same type', async ({ client, assert }) => {
    const { user, get } = await syncedUser(client, 'cacher')
    const { outdoor } = await twoExercises(user.id)
    for (const [path, type] of [
      [`exercises/${outdoor.id}/route.gpx`, /^application\/gpx\+xml/],
      [`exercises/${outdoor.id}.tcx`, /^application\/vnd\.garmin\.tcx\+xml/],
      [`exercises/${outdoor.id}/route`, /^application\/geo\+json/],
    ] as const) {
      const first = await get(path)
      const second = await get(path)
      second.assertStatus(200)
      assert.match(second.header('content-type') ?? '', type)
      assert.equal(second.text(), first.text())
      const etag = second.header('etag')
      assert.isString(etag)
      const third = await get(path).header('If-None-Match', etag!)
      third.assertStatus(304)
    }
  })

  test('an EXERCISE webhook event stores the exercise with its samples and route in one call', async ({ assert }) => {
    const ctx = context()
    const token = completeToken('pushed')
    const user = await User.create({ externalId: 'pushed', isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
    await (await app.container.make(ProviderTokenService)).store(user, token)
    const list = await wire(ctx, token, '/v3/exercises')
    const outdoor = list.find((e: any) => e.has_route)
    const before = ctx.sim.requests.length
    const outcome = await (await app.container.make(PolarEventService)).handle(user, {
      event: 'EXERCISE',
      polarUserId: String(ctx.sim.polarUserIdOf(token)),
      entityId: outdoor.id,
    })
    assert.equal(outcome.providerCalls, 1)
    assert.deepEqual(outcome.counts, { exercises: 1, exercise_samples: 1 })
    const call = ctx.sim.requests.slice(before).find((r) => r.path.startsWith('/v3/'))!
    assert.containsSubset(call.query, { samples: 'true', zones: 'true', route: 'true' })
    const row = await ExerciseSample.findByOrFail('polarExerciseId', outdoor.id)
    assert.isAbove(row.routePointCount, 100)
    assert.isNotNull(row.samples)
  })

  test('an exercise stored before samples were kept: 404 for samples and route, a TCX lap without a track, back-filled by the next sync', async ({ client, assert }) => {
    const ctx = context()
    const { user, get, token } = await syncedUser(client, 'veteran')
    const { outdoor } = await twoExercises(user.id)
    await ExerciseSample.query().where('userId', user.id).where('polarExerciseId', outdoor.polarExerciseId).delete()

    const samples = await get(`exercises/${outdoor.id}/samples`)
    samples.assertStatus(404)
    assert.match(samples.body().detail, /No samples are stored/)
    ;(await get(`exercises/${outdoor.id}/route`)).assertStatus(404)
    const tcx = await get(`exercises/${outdoor.id}.tcx`)
    tcx.assertStatus(200)
    assert.deepEqual(await xsdErrors(tcx.text(), 'tcx'), [])
    assert.notInclude(tcx.text(), '<Track>')

    const detailCalls = ctx.sim.requestsTo('exercise_detail').length
    const resync = await client.post('/api/v1/users/veteran/sync/trigger?days=28').header('X-Provider-Token', token).header('X-API-Key', await serviceApiKey('resync'))
    resync.assertStatus(200)
    assert.lengthOf(ctx.sim.requestsTo('exercise_detail'), detailCalls + 1)
    ;(await get(`exercises/${outdoor.id}/route`)).assertStatus(200)
  })

  /**
   * PostgreSQL 14+ stores the large text values (samples, routes, day streams) LZ4-compressed
   * (migration 1763800000780): pglz cost most of a sync's insert time. On SQLite there is no
   * TOAST; the values are stored as they are, which the reads above already cover.
   */
  test('large sample values are stored LZ4-compressed on PostgreSQL, and read back unchanged', async ({ client, assert }) => {
    const ctx = context()
    const { user, token, get } = await syncedUser(client, 'compressed')
    const { outdoor } = await twoExercises(user.id)
    if (db.connection().dialect.name === 'postgres') {
      const result = await db.rawQuery(
        `select pg_column_compression(samples) as method, count(*)::int as n from exercise_samples
         where user_id = ? and octet_length(samples) > 4096 group by 1`,
        [user.id]
      )
      assert.lengthOf(result.rows, 1)
      assert.equal(result.rows[0].method, 'lz4')
      assert.isAbove(result.rows[0].n, 0)
    }
    // Served from the stored (compressed) values: every stream as the wire has it.
    const response = await get(`exercises/${outdoor.id}/samples`)
    response.assertStatus(200)
    const detail = await wire(ctx, token, `/v3/exercises/${outdoor.polarExerciseId}?samples=true&zones=true&route=true`)
    assert.deepEqual(
      response.body().samples.map((s: any) => s.data),
      detail.samples.map((stream: any) => stream.data.split(',').map((v: string) => (v === 'null' ? null : Number(v))))
    )
  })
})

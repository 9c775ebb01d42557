import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import ActivitySample from '#models/activity_sample'
import HeartRateDay from '#models/heart_rate_day'
import PhysicalInfo from '#models/physical_info'
import { ActivitySampleFactory } from '#database/factories/activity_sample_factory'
import { HeartRateDayFactory } from '#database/factories/heart_rate_day_factory'
import { PhysicalInfoFactory } from '#database/factories/physical_info_factory'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { schemaViolations } from '#tests/functional/api/v1/records/helpers'

const PROBLEM = /^application\/problem\+json/
const BAD_DATES = ['2026-02-30', '2025-02-29', '2026-13-01', '2026-2-1', 'yesterday', '20260201']
const TODAY = '2026-03-01'

/** The routes of this file taking a `{date}`, as URL builders. */
const DATED_ROUTES = [
  { name: 'activity-samples/{date}', url: (user: string, date: string) => `/api/v1/users/${user}/activity-samples/${date}` },
  { name: 'heart-rate/{date}/samples', url: (user: string, date: string) => `/api/v1/users/${user}/heart-rate/${date}/samples` },
]

test.group('API v1 | physical information', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('latest plus every version newest first, whatever their age (no days window)', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    await PhysicalInfoFactory.merge({ userId: user.id, date: '2024-06-10', weightKg: 72.4 }).create()
    await PhysicalInfoFactory.merge({ userId: user.id, date: '2026-02-20', weightKg: 70.1, vo2Max: 52 }).create()
    await PhysicalInfoFactory.merge({ userId: user.id, date: '2025-11-02', weightKg: 71 }).create()
    await PhysicalInfoFactory.merge({ userId: other.id, date: TODAY, weightKg: 99 }).create()

    const response = await client.get(`/api/v1/users/${user.externalId}/physical-info`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(Object.keys(body), ['latest', 'history'])
    assert.deepEqual(
      body.history.map((v: Record<string, unknown>) => [v.measured_at, v.weight_kg]),
      [
        ['2026-02-20T12:00:00Z', 70.1],
        ['2025-11-02T12:00:00Z', 71],
        ['2024-06-10T12:00:00Z', 72.4],
      ]
    )
    assert.deepEqual(body.latest, body.history[0])
    assert.deepEqual(body.latest, {
      measured_at: '2026-02-20T12:00:00Z',
      date: '2026-02-20',
      weight_kg: 70.1,
      height_cm: 175,
      vo2_max: 52,
      max_heart_rate: 190,
      resting_heart_rate: 60,
      aerobic_threshold: 140,
      anaerobic_threshold: 170,
      sleep_goal: 'PT8H',
      sleep_goal_minutes: 480,
      weight_source: 'SOURCE_USER',
      training_background: 'REGULAR',
      typical_day: 'MOSTLY_MOVING',
      gender: 'MALE',
      birthday: '1990-01-01',
    })
    for (const version of body.history) assert.deepEqual(await schemaViolations(version, 'PhysicalInfoRecord'), [])
  })

  test('settings never made are null; a user without any is {latest: null, history: []}', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const nobody = await createUser()
    const empty = await client.get(`/api/v1/users/${nobody.externalId}/physical-info`).header('X-API-Key', key)
    empty.assertStatus(200)
    empty.assertBody({ latest: null, history: [] })

    const { user, apiKey } = await userWithApiKey()
    await PhysicalInfo.create({ userId: user.id, measuredAt: '2026-02-01T08:00:00Z', date: '2026-02-01' })
    const bare = await client.get(`/api/v1/users/${user.externalId}/physical-info`).header('X-API-Key', apiKey)
    bare.assertStatus(200)
    const latest = bare.body().latest
    assert.deepEqual(await schemaViolations(latest, 'PhysicalInfoRecord'), [])
    assert.deepEqual(
      Object.entries(latest).filter(([, value]) => value !== null).map(([key]) => key),
      ['measured_at', 'date']
    )
  })

  test('unknown user 404, bad user id 422, another user’s key 403, all problems', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const unknown = await client.get('/api/v1/users/nobody_here/physical-info').header('X-API-Key', key)
    unknown.assertStatus(404)
    unknown.assertBodyContains({ code: 'E_UNKNOWN_USER' })
    const bad = await client.get('/api/v1/users/bad%20id/physical-info').header('X-API-Key', key)
    bad.assertStatus(422)
    assert.match(bad.header('content-type') ?? '', PROBLEM)
    const { apiKey } = await userWithApiKey()
    const other = await createUser()
    const foreign = await client.get(`/api/v1/users/${other.externalId}/physical-info`).header('X-API-Key', apiKey)
    foreign.assertStatus(403)
    foreign.assertBodyContains({ code: 'E_FORBIDDEN_USER' })
    const anonymous = await client.get(`/api/v1/users/${other.externalId}/physical-info`)
    anonymous.assertStatus(401)
  })
})

test.group('API v1 | activity samples', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('a day: steps per minute expanded from the runs, zone periods, inactivity stamps', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await ActivitySampleFactory.merge({ userId: user.id, date: '2026-02-28' }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/activity-samples/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    const day = response.body()
    assert.deepEqual(await schemaViolations(day, 'ActivitySampleDay'), [])
    assert.deepEqual(Object.keys(day), ['date', 'interval_ms', 'total_steps', 'steps_per_minute', 'activity_zones', 'inactivity_stamps'])
    assert.lengthOf(day.steps_per_minute, 1440)
    assert.deepEqual(day.steps_per_minute.slice(419, 422), [0, 42, 42])
    assert.deepEqual(day.steps_per_minute.slice(449, 451), [42, 0])
    assert.equal(day.steps_per_minute.reduce((sum: number, n: number) => sum + n, 0), day.total_steps)
    assert.deepEqual(day.activity_zones, [
      { start: '2026-02-28 00:00:00', end: '2026-02-28 06:58:30', zone: 'SLEEP', duration_seconds: 25110 },
      { start: '2026-02-28 06:58:30', end: '2026-02-28 07:30:00', zone: 'LIGHT', duration_seconds: 1890 },
      { start: '2026-02-28 07:30:00', end: '2026-03-01 00:00:00', zone: 'SEDENTARY', duration_seconds: 59400 },
    ])
    assert.deepEqual(day.inactivity_stamps, ['2026-02-28 16:04:00'])
  })

  test('a day with nothing measured serialises its nulls', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await ActivitySample.create({ userId: user.id, date: '2026-02-28', stepRunCount: 0 })
    const response = await client.get(`/api/v1/users/${user.externalId}/activity-samples/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.deepEqual(await schemaViolations(response.body(), 'ActivitySampleDay'), [])
    response.assertBody({
      date: '2026-02-28',
      interval_ms: null,
      total_steps: null,
      steps_per_minute: null,
      activity_zones: null,
      inactivity_stamps: null,
    })
  })
})

test.group('API v1 | heart-rate samples', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('the day’s samples as local time and bpm, placeholders dropped, with their count', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await HeartRateDay.create({
      userId: user.id,
      date: '2026-02-28',
      hrMin: 58,
      hrAvg: 60,
      hrMax: 62,
      sampleCount: 3,
      samples: JSON.stringify([
        { time: '00:02:08', heart_rate: 62 },
        { time: '00:07:08', heart_rate: null },
        { time: '00:12:08', heart_rate: 58 },
        { time: '23:57:08', heart_rate: 60 },
      ]),
    })
    const response = await client.get(`/api/v1/users/${user.externalId}/heart-rate/2026-02-28/samples`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.deepEqual(await schemaViolations(response.body(), 'HeartRateSamples'), [])
    response.assertBody({
      date: '2026-02-28',
      sample_count: 3,
      samples: [
        { time: '2026-02-28 00:02:08', bpm: 62 },
        { time: '2026-02-28 00:12:08', bpm: 58 },
        { time: '2026-02-28 23:57:08', bpm: 60 },
      ],
    })
  })

  test('a stored day without valid samples is an empty list, not a 404', async ({ client }) => {
    const { user, apiKey } = await userWithApiKey()
    await HeartRateDayFactory.merge({ userId: user.id, date: '2026-02-27', samples: JSON.stringify([{ time: '09:00:00', heart_rate: 0 }]) }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/heart-rate/2026-02-27/samples`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    response.assertBody({ date: '2026-02-27', sample_count: 0, samples: [] })
  })
})

test.group('API v1 | dated sample routes', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('{name}: no day stored is a 404 problem, another user’s day is not visible')
    .with(DATED_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      const other = await createUser()
      await ActivitySampleFactory.merge({ userId: other.id, date: '2026-02-28' }).create()
      await HeartRateDayFactory.merge({ userId: other.id, date: '2026-02-28' }).create()
      const response = await client.get(route.url(user.externalId, '2026-02-28')).header('X-API-Key', apiKey)
      response.assertStatus(404)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      response.assertBodyContains({ status: 404, code: 'E_NOT_FOUND' })
    })

  test('{name}: malformed or impossible dates are 422 problems on date')
    .with(DATED_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      for (const date of BAD_DATES) {
        const response = await client.get(route.url(user.externalId, date)).header('X-API-Key', apiKey)
        response.assertStatus(422)
        assert.match(response.header('content-type') ?? '', PROBLEM)
        assert.equal(response.body().errors[0].field, 'date', date)
      }
    })

  test('{name}: unknown user 404, another user’s key 403')
    .with(DATED_ROUTES)
    .run(async ({ client }, route) => {
      const key = await serviceApiKey()
      const unknown = await client.get(route.url('nobody_here', '2026-02-28')).header('X-API-Key', key)
      unknown.assertStatus(404)
      unknown.assertBodyContains({ code: 'E_UNKNOWN_USER' })
      const { apiKey } = await userWithApiKey()
      const other = await createUser()
      const foreign = await client.get(route.url(other.externalId, '2026-02-28')).header('X-API-Key', apiKey)
      foreign.assertStatus(403)
      foreign.assertBodyContains({ code: 'E_FORBIDDEN_USER' })
    })

  test('{name}: answers carry an ETag and a repeat with If-None-Match is a 304')
    .with(DATED_ROUTES)
    .run(async ({ client, assert }, route) => {
      const { user, apiKey } = await userWithApiKey()
      await ActivitySampleFactory.merge({ userId: user.id, date: '2026-02-28' }).create()
      await HeartRateDayFactory.merge({ userId: user.id, date: '2026-02-28' }).create()
      const first = await client.get(route.url(user.externalId, '2026-02-28')).header('X-API-Key', apiKey)
      first.assertStatus(200)
      const etag = first.header('etag')
      assert.isString(etag)
      const again = await client.get(route.url(user.externalId, '2026-02-28')).header('X-API-Key', apiKey).header('If-None-Match', etag!)
      again.assertStatus(304)
    })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import SleepRecord from '#models/sleep_record'
import DailyActivity from '#models/daily_activity'
import Exercise from '#models/exercise'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { DailyActivityFactory } from '#database/factories/daily_activity_factory'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { schemaViolations } from '#tests/functional/api/v1/records/helpers'

const PROBLEM = /^application\/problem\+json/
const BAD_DATES = ['2026-02-30', '2025-02-29', '2026-13-01', '2026-2-1', 'yesterday', '20260201']

test.group('API v1 | sleep night', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock('2026-03-01T12:00:00'))

  test('returns the night with stages, hypnogram, samples and the same night’s recharge', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await SleepRecordFactory.merge({
      userId: user.id,
      date: '2026-02-28',
      sleepScore: 83,
      lightSleepSeconds: 14400,
      deepSleepSeconds: 0,
      remSleepSeconds: 5430,
      heartRateAvg: 51,
      continuity: 3.4,
      sleepStartTime: '2026-02-27 23:12:00',
      sleepEndTime: '2026-02-28 06:47:30',
      sleepStartOffsetMinutes: 60,
      sleepEndOffsetMinutes: 60,
    }).create()
    await NightlyRechargeFactory.merge({ userId: user.id, date: '2026-02-28', hrvAvg: 47.5, breathingRateAvg: 14.5 }).create()
    await NightlyRechargeFactory.merge({ userId: user.id, date: '2026-02-27', hrvAvg: 99 }).create()

    const response = await client.get(`/api/v1/users/${user.externalId}/sleep/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    const night = response.body()
    assert.deepEqual(await schemaViolations(night, 'SleepNight'), [])
    assert.containsSubset(night, {
      date: '2026-02-28',
      sleep_score: 83,
      total_sleep_hours: 5.51,
      deep_sleep_hours: 0,
      rem_sleep_hours: 1.51,
      light_sleep_hours: 4,
      hrv_avg: 47.5,
      heart_rate_avg: 51,
      breathing_rate_avg: 14.5,
      total_sleep_seconds: 19830,
      deep_sleep_seconds: 0,
      continuity: 3.4,
      sleep_start_time: '2026-02-27 23:12:00',
      sleep_end_time: '2026-02-28 06:47:30',
      sleep_start_offset_minutes: 60,
    })
    assert.deepEqual(night.hypnogram[0], { time: '2026-02-27 23:00:00', stage: 0 })
    assert.deepEqual(night.heart_rate_samples[1], { time: '2026-02-28 02:00:00', heart_rate: 48 })
  })

  test('a night with nothing measured serialises its nulls', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await SleepRecord.create({ userId: user.id, date: '2026-02-28' })
    const response = await client.get(`/api/v1/users/${user.externalId}/sleep/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.deepEqual(await schemaViolations(response.body(), 'SleepNight'), [])
    assert.containsSubset(response.body(), { total_sleep_hours: null, hrv_avg: null, hypnogram: null, heart_rate_samples: null })
  })

  test('no night on that date is a 404 problem', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await SleepRecordFactory.merge({ userId: user.id, date: '2026-02-27' }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/sleep/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(404)
    assert.match(response.header('content-type') ?? '', PROBLEM)
    response.assertBodyContains({ status: 404, code: 'E_NOT_FOUND' })
  })

  test('date {$self} is a 422 problem')
    .with(BAD_DATES)
    .run(async ({ client, assert }, date) => {
      const { user, apiKey } = await userWithApiKey()
      const response = await client.get(`/api/v1/users/${user.externalId}/sleep/${date}`).header('X-API-Key', apiKey)
      response.assertStatus(422)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      assert.equal(response.body().errors[0].field, 'date')
    })

  test('an unknown user is a 404 problem', async ({ client }) => {
    const key = await serviceApiKey()
    const response = await client.get('/api/v1/users/nobody_here/sleep/2026-02-28').header('X-API-Key', key)
    response.assertStatus(404)
    response.assertBodyContains({ code: 'E_UNKNOWN_USER' })
  })
})

test.group('API v1 | activity day', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('returns the day in raw units with samples and zones', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await DailyActivityFactory.merge({
      userId: user.id,
      date: '2026-02-28',
      steps: 0,
      distanceMeters: 7345.5,
      activeDurationSeconds: 5430,
      dailyActivity: 94.5,
      inactivityAlertCount: 0,
    }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/activity/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    const day = response.body()
    assert.deepEqual(await schemaViolations(day, 'ActivityDay'), [])
    assert.containsSubset(day, {
      date: '2026-02-28',
      steps: 0,
      distance_km: 7.35,
      active_minutes: 90.5,
      activity_score: 95,
      distance_meters: 7345.5,
      active_duration_seconds: 5430,
      daily_activity_percent: 94.5,
      inactivity_alert_count: 0,
      start_time: '2026-02-28 00:00:00',
    })
    assert.deepEqual(day.step_samples, {
      interval_ms: 3600000,
      total_steps: 1200,
      samples: [{ time: '2026-02-28 08:00:00', steps: 1200 }],
    })
    assert.deepEqual(day.activity_zones[1], { time: '2026-02-28 08:00:00', zone: 'LIGHT' })
  })

  test('a day with nothing measured serialises its nulls', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await DailyActivity.create({ userId: user.id, date: '2026-02-28' })
    const response = await client.get(`/api/v1/users/${user.externalId}/activity/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.deepEqual(await schemaViolations(response.body(), 'ActivityDay'), [])
    assert.containsSubset(response.body(), { steps: null, step_samples: null, activity_zones: null })
  })

  test('no activity on that date is a 404 problem; another user’s day is not visible', async ({ client }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    await DailyActivityFactory.merge({ userId: other.id, date: '2026-02-28' }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/activity/2026-02-28`).header('X-API-Key', apiKey)
    response.assertStatus(404)
    response.assertBodyContains({ status: 404, code: 'E_NOT_FOUND' })
  })

  test('date {$self} is a 422 problem')
    .with(BAD_DATES)
    .run(async ({ client, assert }, date) => {
      const { user, apiKey } = await userWithApiKey()
      const response = await client.get(`/api/v1/users/${user.externalId}/activity/${date}`).header('X-API-Key', apiKey)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, 'date')
    })

  test('an unknown user is a 404 problem', async ({ client }) => {
    const key = await serviceApiKey()
    const response = await client.get('/api/v1/users/nobody_here/activity/2026-02-28').header('X-API-Key', key)
    response.assertStatus(404)
    response.assertBodyContains({ code: 'E_UNKNOWN_USER' })
  })
})

test.group('API v1 | exercise detail', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('returns the session with zones, detailed sport, Training Load Pro and running index', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const exercise = await ExerciseFactory.merge({
      userId: user.id,
      polarExerciseId: 'aBc123',
      startTime: '2026-02-28 18:30:00',
      startDate: '2026-02-28',
      durationSeconds: 3725,
      distanceMeters: 10005,
      runningIndex: 52,
      hasRoute: false,
    }).create()
    const response = await client.get(`/api/v1/users/${user.externalId}/exercises/${exercise.id}`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(await schemaViolations(body, 'ExerciseDetail'), [])
    assert.containsSubset(body, {
      id: Number(exercise.id),
      polar_exercise_id: 'aBc123',
      start_time: '2026-02-28 18:30:00',
      sport: 'RUNNING',
      detailed_sport_info: 'RUNNING_ROAD',
      duration_minutes: 62.1,
      duration_seconds: 3725,
      distance_km: 10.01,
      distance_meters: 10005,
      running_index: 52,
      has_route: false,
    })
    assert.lengthOf(body.heart_rate_zones, 5)
    assert.deepEqual(body.heart_rate_zones[2], { index: 3, lower_limit_bpm: 133, upper_limit_bpm: 152, in_zone_seconds: 1500 })
    assert.containsSubset(body.training_load_pro, { cardio_load: 85.5, muscle_load: null, user_rpe: 'MODERATE' })
  })

  test('a session with nothing but its start serialises its nulls', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const exercise = await Exercise.create({
      userId: user.id,
      polarExerciseId: 'bare',
      startTime: '2026-02-28 07:00:00',
      startDate: '2026-02-28',
    })
    const response = await client.get(`/api/v1/users/${user.externalId}/exercises/${exercise.id}`).header('X-API-Key', apiKey)
    response.assertStatus(200)
    assert.deepEqual(await schemaViolations(response.body(), 'ExerciseDetail'), [])
    assert.containsSubset(response.body(), { has_route: null, heart_rate_zones: null, training_load_pro: null })
  })

  test('an unknown id, or another user’s exercise, is a 404 problem', async ({ client }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    const foreign = await ExerciseFactory.merge({ userId: other.id }).create()
    const missing = await client.get(`/api/v1/users/${user.externalId}/exercises/987654321`).header('X-API-Key', apiKey)
    missing.assertStatus(404)
    missing.assertBodyContains({ status: 404, code: 'E_NOT_FOUND' })
    const stranger = await client.get(`/api/v1/users/${user.externalId}/exercises/${foreign.id}`).header('X-API-Key', apiKey)
    stranger.assertStatus(404)
  })

  test('id {$self} is a 422 problem')
    .with(['abc', '1.5', '0', '-1', '1e400', '99999999999999999999'])
    .run(async ({ client, assert }, id) => {
      const { user, apiKey } = await userWithApiKey()
      const response = await client.get(`/api/v1/users/${user.externalId}/exercises/${id}`).header('X-API-Key', apiKey)
      response.assertStatus(422)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      assert.equal(response.body().errors[0].field, 'id')
    })

  test('an unknown user is a 404 problem', async ({ client }) => {
    const key = await serviceApiKey()
    const response = await client.get('/api/v1/users/nobody_here/exercises/1').header('X-API-Key', key)
    response.assertStatus(404)
    response.assertBodyContains({ code: 'E_UNKNOWN_USER' })
  })
})

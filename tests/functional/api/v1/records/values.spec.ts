import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { DailyActivityFactory } from '#database/factories/daily_activity_factory'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { CardioLoadFactory } from '#database/factories/cardio_load_factory'
import { HeartRateDayFactory } from '#database/factories/heart_rate_day_factory'
import { SleepwiseAlertnessFactory } from '#database/factories/sleepwise_alertness_factory'
import { SleepwiseBedtimeFactory } from '#database/factories/sleepwise_bedtime_factory'
import { Spo2TestFactory } from '#database/factories/spo2_test_factory'
import { EcgTestFactory } from '#database/factories/ecg_test_factory'
import { BodyTemperatureFactory } from '#database/factories/body_temperature_factory'
import { SkinTemperatureFactory } from '#database/factories/skin_temperature_factory'
import { userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { minusDays } from '#tests/functional/api/v1/records/helpers'
import { upsertRows } from '#services/sync/queries'

const TODAY = '2026-03-01'

/** GET a list route of a fresh user's data as JSON. */
async function list(client: any, externalId: string, apiKey: string, path: string, days?: number) {
  const request = client.get(`/api/v1/users/${externalId}/${path}`).header('X-API-Key', apiKey)
  const response = await (days ? request.qs({ days }) : request)
  response.assertStatus(200)
  return response.body()
}

test.group('API v1 | derived values', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('sleep: hours 2 dp, total = light + deep + REM, HRV from the same night’s recharge, 0 stays 0', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const night = (date: string, light: number | null, deep: number | null, rem: number | null) =>
      SleepRecordFactory.merge({ userId: user.id, date, lightSleepSeconds: light, deepSleepSeconds: deep, remSleepSeconds: rem }).create()
    await night('2026-03-01', 16200, 4500, 7199)
    await night('2026-02-28', 0, null, 3725)
    await night('2026-02-27', null, null, null)
    await NightlyRechargeFactory.merge({ userId: user.id, date: '2026-03-01', hrvAvg: 61.25 }).create()
    await NightlyRechargeFactory.merge({ userId: user.id, date: '2026-02-26', hrvAvg: 99 }).create()

    const records = await list(client, user.externalId, apiKey, 'sleep')
    assert.deepEqual(
      records.map((r: any) => [r.date, r.total_sleep_hours, r.light_sleep_hours, r.deep_sleep_hours, r.rem_sleep_hours, r.hrv_avg]),
      [
        ['2026-03-01', 7.75, 4.5, 1.25, 2, 61.25],
        ['2026-02-28', 1.03, 0, null, 1.03, null],
        ['2026-02-27', null, null, null, null, null],
      ]
    )
  })

  test('activity: distance_km 2 dp, active_minutes 1 dp, activity_score rounded', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await DailyActivityFactory.merge({
      userId: user.id,
      date: TODAY,
      steps: 0,
      distanceMeters: 1005,
      activeDurationSeconds: 5430,
      dailyActivity: 94.5,
      caloriesActive: 0,
    }).create()
    const [record] = await list(client, user.externalId, apiKey, 'activity')
    assert.containsSubset(record, { steps: 0, calories_active: 0, distance_km: 1.01, active_minutes: 90.5, activity_score: 95 })
  })

  test('recharge: ans_charge_status 1–5 is served as its label, 0 charge stays 0', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (const [n, status] of [1, 2, 3, 4, 5, null].entries()) {
      await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, n), ansChargeStatus: status, ansCharge: n === 2 ? 0 : 1.5 }).create()
    }
    const records = await list(client, user.externalId, apiKey, 'recharge')
    assert.deepEqual(
      records.map((r: any) => r.ans_charge_status),
      ['much_below_usual', 'below_usual', 'usual', 'above_usual', 'much_above_usual', null]
    )
    assert.strictEqual(records[2].ans_charge, 0)
  })

  test('exercises: integer id, Polar id, local start time, minutes 1 dp, km 2 dp; newest start first', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const morning = await ExerciseFactory.merge({
      userId: user.id,
      polarExerciseId: 'Xy12',
      startTime: `${TODAY} 06:05:09`,
      durationSeconds: 3725,
      distanceMeters: 10005,
      trainingLoad: 0,
    }).create()
    await ExerciseFactory.merge({ userId: user.id, startTime: `${TODAY} 19:00:00` }).create()
    const records = await list(client, user.externalId, apiKey, 'exercises')
    assert.deepEqual(records.map((r: any) => r.start_time), [`${TODAY} 19:00:00`, `${TODAY} 06:05:09`])
    assert.deepEqual(records[1], {
      id: Number(morning.id),
      polar_exercise_id: 'Xy12',
      start_time: `${TODAY} 06:05:09`,
      sport: 'RUNNING',
      duration_minutes: 62.1,
      distance_km: 10.01,
      calories: morning.calories,
      average_heart_rate: morning.averageHeartRate,
      max_heart_rate: morning.maxHeartRate,
      training_load: 0,
    })
  })

  test('cardio load: nulls stay null and a real 0 stays 0', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await CardioLoadFactory.merge({
      userId: user.id,
      date: TODAY,
      strain: 0,
      tolerance: 45.5,
      cardioLoad: 0,
      cardioLoadRatio: null,
      cardioLoadStatus: 'LOAD_STATUS_NOT_AVAILABLE',
    }).create()
    const [record] = await list(client, user.externalId, apiKey, 'cardio-load')
    assert.deepEqual(record, {
      date: TODAY,
      strain: 0,
      tolerance: 45.5,
      cardio_load: 0,
      cardio_load_ratio: null,
      cardio_load_status: 'LOAD_STATUS_NOT_AVAILABLE',
    })
  })

  test('heart rate: the daily summary without the samples', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await HeartRateDayFactory.merge({ userId: user.id, date: TODAY }).create()
    const records = await list(client, user.externalId, apiKey, 'heart-rate')
    assert.deepEqual(records, [{ date: TODAY, hr_min: 48, hr_avg: 67, hr_max: 120, sample_count: 4 }])
  })

  test('sleepwise: alertness periods and bedtimes as local times, bedtimes as HH:MM:SS', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await SleepwiseAlertnessFactory.merge({ userId: user.id, periodDate: TODAY, grade: 7.5 }).create()
    await SleepwiseBedtimeFactory.merge({ userId: user.id, periodDate: TODAY }).create()
    assert.deepEqual(await list(client, user.externalId, apiKey, 'sleepwise/alertness'), [
      {
        period_start_time: `${TODAY} 07:00:00`,
        period_end_time: `${TODAY} 23:00:00`,
        grade: 7.5,
        grade_classification: 'GRADE_CLASSIFICATION_STRONG',
      },
    ])
    assert.deepEqual(await list(client, user.externalId, apiKey, 'sleepwise/bedtime'), [
      {
        period_start_time: `${TODAY} 22:30:00`,
        period_end_time: '2026-03-02 06:30:00',
        preferred_sleep_start: '22:30:00',
        preferred_sleep_end: '06:30:00',
        sleep_gate_start: '22:15:00',
        sleep_gate_end: '22:45:00',
        quality: 'CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE',
      },
    ])
  })

  test('biosensing: SpO2 spec fields; ECG, body and skin temperature expose every stored field', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await Spo2TestFactory.merge({
      userId: user.id,
      testDate: TODAY,
      bloodOxygenPercent: 97,
      averageHeartRateBpm: 61,
      heartRateVariabilityMs: 42.5,
    }).create()
    const ecg = await EcgTestFactory.merge({ userId: user.id, testDate: TODAY, averageHeartRateBpm: 60, heartRateVariabilityMs: 42 }).create()
    await BodyTemperatureFactory.merge({ userId: user.id, startDate: TODAY }).create()
    await SkinTemperatureFactory.merge({
      userId: user.id,
      sleepDate: TODAY,
      sleepTimeSkinTemperatureCelsius: 34.5,
      deviationFromBaselineCelsius: -0.25,
    }).create()

    assert.deepEqual(await list(client, user.externalId, apiKey, 'spo2'), [
      {
        test_time: `${TODAY} 09:00:00`,
        blood_oxygen_percent: 97,
        spo2_class: 'SPO2_CLASS_NORMAL',
        avg_heart_rate: 61,
        hrv_ms: 42.5,
        altitude_meters: 120.5,
      },
    ])
    assert.deepEqual(await list(client, user.externalId, apiKey, 'ecg'), [
      {
        id: Number(ecg.id),
        test_time: `${TODAY} 10:00:00`,
        test_timestamp_ms: DateTime.fromISO(`${TODAY}T10:00:00Z`).toMillis(),
        time_zone_offset_minutes: 0,
        device_id: 'A1B2C3D4',
        average_heart_rate_bpm: 60,
        heart_rate_variability_ms: 42,
        heart_rate_variability_level: 'ECG_HRV_LEVEL_USUAL',
        rri_ms: 1000,
        pulse_transit_time_systolic_ms: 210.5,
        pulse_transit_time_diastolic_ms: 250.25,
        pulse_transit_time_quality_index: 80,
        sample_count: 3,
        samples: [
          { time_ms: 0, amplitude_mv: 0.1 },
          { time_ms: 8, amplitude_mv: 0.35 },
          { time_ms: 16, amplitude_mv: -0.05 },
        ],
        quality_measurements: [{ time_ms: 0, quality_level: 'ECG_QUALITY_HIGH' }],
      },
    ])
    assert.deepEqual(await list(client, user.externalId, apiKey, 'temperature/body'), [
      {
        start_time: `${TODAY} 02:00:00`,
        end_time: `${TODAY} 03:00:00`,
        modified_time: `${TODAY} 03:00:00`,
        measurement_type: 'TM_SKIN_TEMPERATURE',
        sensor_location: 'SL_DISTAL',
        device_id: 'A1B2C3D4',
        temperature_min_celsius: 33.9,
        temperature_avg_celsius: 34.25,
        temperature_max_celsius: 34.6,
        sample_count: 2,
        samples: [
          { time: `${TODAY} 02:00:00`, offset_ms: 0, temperature_celsius: 33.9 },
          { time: `${TODAY} 02:01:00`, offset_ms: 60000, temperature_celsius: 34.6 },
        ],
      },
    ])
    assert.deepEqual(await list(client, user.externalId, apiKey, 'temperature/skin'), [
      { sleep_date: TODAY, sleep_time_skin_temperature_celsius: 34.5, deviation_from_baseline_celsius: -0.25 },
    ])
  })
})

test.group('API v1 | long history', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('days=365 on three years of nightly history returns exactly the last 365 days', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    // Written as a back-fill writes them: the sync's batched upsert.
    const rows = Array.from({ length: 3 * 365 + 2 }, (_, n) => ({
      date: minusDays(TODAY, n - 1),
      sleepScore: 70 + (n % 20),
      lightSleepSeconds: 14400,
      deepSleepSeconds: 3600,
      remSleepSeconds: 5400,
    }))
    await upsertRows(db.connection(), 'sleep_records', user.id, ['date'], rows, DateTime.utc())
    assert.equal(Number((await db.from('sleep_records').where('user_id', user.id).count('* as n').first()).n), 1097)

    const records = await list(client, user.externalId, apiKey, 'sleep', 365)
    assert.lengthOf(records, 365)
    assert.equal(records[0].date, TODAY)
    assert.equal(records[364].date, minusDays(TODAY, 364))
    assert.equal(new Set(records.map((r: any) => r.date)).size, 365)
    assert.isTrue(records.every((r: any, i: number) => i === 0 || r.date < records[i - 1].date))
  })
})

test.group('API v1 | timezone', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(() => pinClock(`${TODAY}T12:00:00`)())

  test('"today" is the date in APP_TIMEZONE, not in UTC', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (const date of ['2026-02-28', '2026-03-01', '2026-03-02']) {
      await SleepRecordFactory.merge({ userId: user.id, date }).create()
    }
    const today = async (zone: string) => {
      pinClock('2026-03-01T12:30:00Z', zone)
      return (await list(client, user.externalId, apiKey, 'sleep', 1)).map((r: any) => r.date)
    }
    assert.deepEqual(await today('UTC'), ['2026-03-01'])
    assert.deepEqual(await today('Pacific/Kiritimati'), ['2026-03-02'])
    assert.deepEqual(await today('Pacific/Pago_Pago'), ['2026-03-01'])
    assert.deepEqual(await today('America/Adak'), ['2026-03-01'])
    pinClock('2026-03-01T05:00:00Z', 'America/New_York')
    assert.deepEqual((await list(client, user.externalId, apiKey, 'sleep', 2)).map((r: any) => r.date), ['2026-03-01', '2026-02-28'])
    pinClock('2026-03-01T04:59:59Z', 'America/New_York')
    assert.deepEqual((await list(client, user.externalId, apiKey, 'sleep', 1)).map((r: any) => r.date), ['2026-02-28'])
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { readFile } from 'node:fs/promises'
import { DateTime } from 'luxon'
import type User from '#models/user'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { DailyActivityFactory } from '#database/factories/daily_activity_factory'
import { CardioLoadFactory } from '#database/factories/cardio_load_factory'
import { CsvExportService } from '#services/export/csv_export_service'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { minusDays } from '#tests/functional/api/v1/records/helpers'

const TODAY = '2026-03-01'
const FILES = ['sleep', 'activity', 'recharge', 'cardio-load'] as const
const HEADERS: Record<(typeof FILES)[number], string> = {
  'sleep': 'date,sleep_score,total_hours,deep_hours,light_hours,rem_hours,hrv_avg,heart_rate_avg,breathing_rate_avg',
  'activity': 'date,steps,calories_active,calories_total,distance_km,active_minutes',
  'recharge': 'date,hrv_avg,ans_charge,status,breathing_rate,heart_rate_avg',
  'cardio-load': 'date,strain,tolerance,cardio_load,load_ratio,status',
}

const expectedFile = (file: string) => readFile(app.makePath(`tests/functional/api/v1/export/expected/${file}.csv`), 'utf8')

/** The rows behind the hand-computed files in ./expected: 2026-02-26 … 2026-03-01, nulls and zeros included. */
async function seedExportRows(user: User) {
  const userId = user.id
  // Outside a 3-day window ending 2026-03-01: must not appear.
  await SleepRecordFactory.merge({ userId, date: '2026-02-26' }).create()
  await DailyActivityFactory.merge({ userId, date: '2026-02-26' }).create()
  await NightlyRechargeFactory.merge({ userId, date: '2026-02-26' }).create()
  await CardioLoadFactory.merge({ userId, date: '2026-02-26' }).create()

  const night = (date: string, values: Record<string, number | null>) =>
    SleepRecordFactory.merge({ userId, date, ...values }).create()
  await night('2026-03-01', { sleepScore: 91, lightSleepSeconds: 16200, deepSleepSeconds: 4500, remSleepSeconds: 7199, heartRateAvg: 48 })
  await night('2026-02-27', { sleepScore: 80, lightSleepSeconds: 14400, deepSleepSeconds: 5400, remSleepSeconds: 6300, heartRateAvg: 52 })
  await night('2026-02-28', { sleepScore: null, lightSleepSeconds: 0, deepSleepSeconds: null, remSleepSeconds: 3725, heartRateAvg: null })

  const recharge = (date: string, values: Record<string, number | null>) =>
    NightlyRechargeFactory.merge({ userId, date, ...values }).create()
  await recharge('2026-02-27', { hrvAvg: 45.5, ansCharge: 2.5, ansChargeStatus: 4, breathingRateAvg: 14.2, heartRateAvg: 55 })
  await recharge('2026-02-28', { hrvAvg: null, ansCharge: 0, ansChargeStatus: null, breathingRateAvg: null, heartRateAvg: null })
  await recharge('2026-03-01', { hrvAvg: 61.25, ansCharge: -3.75, ansChargeStatus: 1, breathingRateAvg: 13, heartRateAvg: 50 })

  const activity = (date: string, values: Record<string, number | null>) => DailyActivityFactory.merge({ userId, date, ...values }).create()
  await activity('2026-02-27', { steps: 10234, caloriesActive: 650, caloriesTotal: 2450, distanceMeters: 8123.456, activeDurationSeconds: 5430 })
  await activity('2026-02-28', { steps: 0, caloriesActive: 0, caloriesTotal: null, distanceMeters: 0, activeDurationSeconds: null })
  await activity('2026-03-01', { steps: 1, caloriesActive: 1, caloriesTotal: 1800, distanceMeters: 1005, activeDurationSeconds: 59 })

  const load = (date: string, values: Record<string, number | string | null>) => CardioLoadFactory.merge({ userId, date, ...values }).create()
  await load('2026-03-01', { strain: 12.5, tolerance: 40, cardioLoad: 12.5, cardioLoadRatio: 0.31, cardioLoadStatus: 'line one\r\nline two' })
  await load('2026-02-27', { strain: 55.5, tolerance: 60, cardioLoad: 70.25, cardioLoadRatio: 0.93, cardioLoadStatus: 'LOAD_STATUS_PRODUCTIVE, "high"' })
  await load('2026-02-28', { strain: 0, tolerance: null, cardioLoad: 0, cardioLoadRatio: null, cardioLoadStatus: null })
}

test.group('API v1 | CSV export', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('{$self}.csv matches the hand-computed file byte for byte')
    .with([...FILES])
    .run(async ({ client, assert }, file) => {
      const { user, apiKey } = await userWithApiKey()
      await seedExportRows(user)
      const other = await createUser()
      await SleepRecordFactory.merge({ userId: other.id, date: TODAY }).create()
      await CardioLoadFactory.merge({ userId: other.id, date: TODAY }).create()

      const response = await client
        .get(`/api/v1/users/${user.externalId}/export/${file}.csv`)
        .qs({ days: 3 })
        .header('X-API-Key', apiKey)
      response.assertStatus(200)
      assert.equal(response.header('content-type'), 'text/csv; charset=utf-8')
      assert.equal(
        response.header('content-disposition'),
        `attachment; filename="${file}_${user.externalId}_2026-02-27_2026-03-01.csv"`
      )
      assert.equal(response.text(), await expectedFile(file))
    })

  test('{$self}.csv of a user without data is the header row only')
    .with([...FILES])
    .run(async ({ client, assert }, file) => {
      const { user, apiKey } = await userWithApiKey()
      const response = await client.get(`/api/v1/users/${user.externalId}/export/${file}.csv`).header('X-API-Key', apiKey)
      response.assertStatus(200)
      assert.equal(response.header('content-type'), 'text/csv; charset=utf-8')
      assert.equal(response.text(), `${HEADERS[file]}\r\n`)
    })

  test('{$self}.csv defaults to 30 days and rejects days 0, 366 and abc; an unknown user is a 404 problem')
    .with([...FILES])
    .run(async ({ client, assert }, file) => {
      const { user, apiKey } = await userWithApiKey()
      await seedExportRows(user)
      await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, 29) }).create()
      await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, 30) }).create()
      const url = `/api/v1/users/${user.externalId}/export/${file}.csv`
      const byDefault = await client.get(url).header('X-API-Key', apiKey)
      byDefault.assertStatus(200)
      assert.include(byDefault.header('content-disposition') ?? '', `_${minusDays(TODAY, 29)}_${TODAY}.csv`)
      const dates = byDefault.text().split('\r\n').slice(1, -1).map((line) => line.slice(0, 10)).filter((d) => /^\d{4}/.test(d))
      assert.isTrue(dates.every((d) => d >= minusDays(TODAY, 29) && d <= TODAY))
      if (file === 'sleep') assert.equal(dates[0], minusDays(TODAY, 29))

      for (const days of ['0', '366', 'abc']) {
        const invalid = await client.get(url).qs({ days }).header('X-API-Key', apiKey)
        invalid.assertStatus(422)
        assert.match(invalid.header('content-type') ?? '', /^application\/problem\+json/)
        assert.equal(invalid.body().errors[0].field, 'days')
      }
      for (const days of [1, 365]) (await client.get(url).qs({ days }).header('X-API-Key', apiKey)).assertStatus(200)

      const key = await serviceApiKey()
      const unknown = await client.get(`/api/v1/users/nobody_here/export/${file}.csv`).header('X-API-Key', key)
      unknown.assertStatus(404)
      assert.match(unknown.header('content-type') ?? '', /^application\/problem\+json/)
      unknown.assertBodyContains({ code: 'E_UNKNOWN_USER' })
    })

  test('days=365 streams the last 365 of three years of days, oldest first, across many pages; in one page it is one body', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const now = DateTime.utc().toFormat('yyyy-MM-dd HH:mm:ss')
    const rows = Array.from({ length: 3 * 365 + 1 }, (_, n) => ({
      user_id: user.id,
      date: minusDays(TODAY, n),
      steps: n,
      distance_meters: 1000 + n,
      created_at: now,
      updated_at: now,
    }))
    for (let i = 0; i < rows.length; i += 200) await db.table('daily_activities').multiInsert(rows.slice(i, i + 200))

    const pageSize = CsvExportService.pageSize
    CsvExportService.pageSize = 50
    let streamed = ''
    try {
      const response = await client.get(`/api/v1/users/${user.externalId}/export/activity.csv`).qs({ days: 365 }).header('X-API-Key', apiKey)
      streamed = response.text()
      response.assertStatus(200)
      const lines = response.text().split('\r\n')
      assert.equal(lines.pop(), '')
      assert.equal(lines.shift(), HEADERS.activity)
      assert.lengthOf(lines, 365)
      assert.equal(lines[0], `${minusDays(TODAY, 364)},364,,,1.36,`)
      assert.equal(lines[364], `${TODAY},0,,,1,`)
      assert.isTrue(lines.every((line, i) => i === 0 || line.slice(0, 10) > lines[i - 1].slice(0, 10)))
      // Many pages: streamed, never held whole.
      assert.equal(response.header('transfer-encoding'), 'chunked')
      assert.isUndefined(response.header('content-length'))
    } finally {
      CsvExportService.pageSize = pageSize
    }
    // The same year in one page (asked as a range: another URL, not the cached answer): one body
    // with its length, byte for byte the streamed file.
    const whole = await client
      .get(`/api/v1/users/${user.externalId}/export/activity.csv`)
      .qs({ from: minusDays(TODAY, 364), to: TODAY })
      .header('X-API-Key', apiKey)
      // Its length as stored (a client accepting gzip gets it compressed: read_fast_path.spec.ts).
      .header('Accept-Encoding', 'identity')
    whole.assertStatus(200)
    assert.equal(whole.text(), streamed)
    assert.equal(whole.header('content-length'), String(Buffer.byteLength(streamed)))
    assert.isUndefined(whole.header('transfer-encoding'))
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { SLEEP_LINES_TABLE, SLEEP_MONTHS_TABLE } from '#services/records/sleep_lines'
import { codeDigest } from '#services/code_digest'
import { upsertRows } from '#services/sync/queries'
import { DataVersionService } from '#services/data_version_service'
import { userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { truncateDatabase } from '#tests/helpers/database'
import { minusDays } from '#tests/functional/api/v1/records/helpers'

const TODAY = '2026-03-01'

/**
 * The whole-window sleep list and sleep.csv are the nights' stored lines joined; a page of either
 * is still shaped row by row from the tables. Both must give the same items for every night, and
 * the lines must follow every write of a night or its recharge.
 */
async function whole(client: any, user: { externalId: string }, apiKey: string, days = 40) {
  const list = await client.get(`/api/v1/users/${user.externalId}/sleep`).qs({ days }).header('X-API-Key', apiKey)
  list.assertStatus(200)
  const csv = await client.get(`/api/v1/users/${user.externalId}/export/sleep.csv`).qs({ days }).header('X-API-Key', apiKey)
  csv.assertStatus(200)
  return { list: list.text() as string, csv: csv.text() as string }
}

async function paged(client: any, user: { externalId: string }, apiKey: string, days = 40) {
  const list = await client.get(`/api/v1/users/${user.externalId}/sleep`).qs({ days, limit: 500 }).header('X-API-Key', apiKey)
  list.assertStatus(200)
  const csv = await client.get(`/api/v1/users/${user.externalId}/export/sleep.csv`).qs({ days, limit: 500 }).header('X-API-Key', apiKey)
  csv.assertStatus(200)
  return { list: list.text() as string, csv: csv.text() as string }
}

test.group('Sleep lines', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('the whole window gives byte for byte what the row-by-row path gives, for every kind of night', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    await SleepRecordFactory.merge({ userId: user.id, date: TODAY, lightSleepSeconds: 16200, deepSleepSeconds: 4500, remSleepSeconds: 7199 }).create()
    await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, 1), lightSleepSeconds: 0, deepSleepSeconds: null, remSleepSeconds: 3725 }).create()
    await SleepRecord.create({ userId: user.id, date: minusDays(TODAY, 2) })
    for (let n = 3; n < 30; n++) await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    await NightlyRechargeFactory.merge({ userId: user.id, date: TODAY, hrvAvg: 61.25, breathingRateAvg: 13.7 }).create()
    await NightlyRecharge.create({ userId: user.id, date: minusDays(TODAY, 3), hrvAvg: null, breathingRateAvg: 14.1 })
    for (let n = 5; n < 25; n += 2) await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    // A recharge without a night, and another user's night: neither shows.
    await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, 35) }).create()
    const { user: other } = await userWithApiKey()
    await SleepRecordFactory.merge({ userId: other.id, date: TODAY }).create()

    const lines = await whole(client, user, apiKey)
    const rows = await paged(client, user, apiKey)
    assert.equal(lines.list, rows.list)
    assert.equal(lines.csv, rows.csv)
    assert.lengthOf(JSON.parse(lines.list), 30)
    assert.deepInclude(JSON.parse(lines.list)[0], { date: TODAY, total_sleep_hours: 7.75, hrv_avg: 61.25 })
    assert.equal(lines.csv.split('\r\n').length, 32) // header, 30 nights, the final line end
  })

  test('a window without nights is an empty list and a header-only CSV', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const lines = await whole(client, user, apiKey)
    assert.equal(lines.list, '[]')
    assert.equal(lines.csv, 'date,sleep_score,total_hours,deep_hours,light_hours,rem_hours,hrv_avg,heart_rate_avg,breathing_rate_avg\r\n')
  })

  test('the lines follow the sync upsert of nights and of their recharge, in either order', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const nights = [0, 1, 2].map((n) => ({ date: minusDays(TODAY, n), sleepScore: 80 + n, lightSleepSeconds: 14400, deepSleepSeconds: 3600, remSleepSeconds: 5400 }))
    await upsertRows(db.connection(), 'nightly_recharges', user.id, ['date'], [{ date: minusDays(TODAY, 1), hrvAvg: 42.5, breathingRateAvg: 15 }], DateTime.utc())
    await upsertRows(db.connection(), 'sleep_records', user.id, ['date'], nights, DateTime.utc())
    let list = JSON.parse((await whole(client, user, apiKey)).list)
    assert.deepEqual(list.map((n: any) => [n.date, n.sleep_score, n.hrv_avg]), [
      [TODAY, 80, null],
      [minusDays(TODAY, 1), 81, 42.5],
      [minusDays(TODAY, 2), 82, null],
    ])

    // The recharge arrives after its night, and a night's score changes on a re-sync.
    await upsertRows(db.connection(), 'nightly_recharges', user.id, ['date'], [{ date: TODAY, hrvAvg: 55, breathingRateAvg: 13.2 }], DateTime.utc())
    await upsertRows(db.connection(), 'sleep_records', user.id, ['date'], [{ ...nights[2], sleepScore: 60 }], DateTime.utc())
    const after = await whole(client, user, apiKey)
    list = JSON.parse(after.list)
    assert.deepEqual(list.map((n: any) => [n.date, n.sleep_score, n.hrv_avg]), [
      [TODAY, 80, 55],
      [minusDays(TODAY, 1), 81, 42.5],
      [minusDays(TODAY, 2), 60, null],
    ])
    const rows = await paged(client, user, apiKey)
    assert.equal(after.list, rows.list)
    assert.equal(after.csv, rows.csv)
  })

  test('the lines follow model saves and deletes of a night and of its recharge', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const night = await SleepRecordFactory.merge({ userId: user.id, date: TODAY, sleepScore: 70 }).create()
    const recharge = await NightlyRechargeFactory.merge({ userId: user.id, date: TODAY, hrvAvg: 40 }).create()
    await night.merge({ sleepScore: 90 }).save()
    await recharge.merge({ hrvAvg: 47.5 }).save()
    let [item] = JSON.parse((await whole(client, user, apiKey)).list)
    assert.include(item, { sleep_score: 90, hrv_avg: 47.5 })

    // Inside a transaction (the hooks take the user's row first on PostgreSQL).
    await db.transaction(async (trx) => {
      await night.useTransaction(trx).merge({ sleepScore: 85 }).save()
      await recharge.useTransaction(trx).merge({ hrvAvg: 52 }).save()
    })
    ;[item] = JSON.parse((await whole(client, user, apiKey)).list)
    assert.include(item, { sleep_score: 85, hrv_avg: 52 })

    await recharge.delete()
    ;[item] = JSON.parse((await whole(client, user, apiKey)).list)
    assert.include(item, { sleep_score: 85, hrv_avg: null })

    await night.delete()
    assert.equal((await whole(client, user, apiKey)).list, '[]')
    assert.lengthOf(await db.from(SLEEP_LINES_TABLE).where('user_id', user.id), 0)
  })

  test('lines missing (an upgrade) or rendered by other code are rendered again on the first read, with the same answers', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (let n = 0; n < 12; n++) await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    for (let n = 0; n < 12; n += 3) await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    const before = await whole(client, user, apiKey)
    const format = codeDigest()
    const formats = await db.from(SLEEP_LINES_TABLE).where('user_id', user.id).distinct('format')
    assert.deepEqual(formats.map((row) => row.format), [format])

    // As the migration leaves an existing database: no lines at all.
    await db.from(SLEEP_LINES_TABLE).delete()
    await DataVersionService.bump(db.connection(), user.id)
    assert.deepEqual(await whole(client, user, apiKey), before)
    assert.lengthOf(await db.from(SLEEP_LINES_TABLE).where({ user_id: user.id, format }), 12)

    // Lines of another release's code (a different item or row): never served, rendered again.
    await db.from(SLEEP_LINES_TABLE).where('user_id', user.id).update({ format: 'older-release', json: '{"stale":true}', csv: 'stale\r\n' })
    await DataVersionService.bump(db.connection(), user.id)
    assert.deepEqual(await whole(client, user, apiKey), before)
    assert.lengthOf(await db.from(SLEEP_LINES_TABLE).where({ user_id: user.id, format }), 12)
  })

  test('a whole table emptied outside HRVault (TRUNCATE on PostgreSQL) drops the lines: the next read shows no recharge', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (let n = 0; n < 5; n++) {
      await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
      await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, n), hrvAvg: 40 }).create()
    }
    assert.deepEqual(JSON.parse((await whole(client, user, apiKey)).list).map((n: any) => n.hrv_avg), [40, 40, 40, 40, 40])
    if (db.connection().dialect.name === 'postgres') await db.rawQuery('truncate nightly_recharges')
    else await db.rawQuery('delete from nightly_recharges')
    await DataVersionService.bump(db.connection(), user.id)
    const lines = await whole(client, user, apiKey)
    assert.deepEqual(JSON.parse(lines.list).map((n: any) => n.hrv_avg), [null, null, null, null, null])
    assert.deepEqual(lines, await paged(client, user, apiKey))
  })

  test('a write made outside HRVault (plain SQL) is seen: its lines are dropped and rendered again on the next read', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    for (let n = 0; n < 5; n++) await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n), sleepScore: 70 }).create()
    await NightlyRechargeFactory.merge({ userId: user.id, date: TODAY, hrvAvg: 40 }).create()
    await whole(client, user, apiKey)
    const bumpAfter = async (write: () => Promise<unknown>) => {
      await write()
      await DataVersionService.bump(db.connection(), user.id)
    }
    await bumpAfter(() => db.from('sleep_records').where({ user_id: user.id, date: minusDays(TODAY, 1) }).update({ sleep_score: 33 }))
    await bumpAfter(() => db.from('nightly_recharges').where({ user_id: user.id, date: TODAY }).update({ hrv_avg: 77.5 }))
    await bumpAfter(() => db.table('sleep_records').insert({ user_id: user.id, date: minusDays(TODAY, 9), sleep_score: 12, created_at: `${TODAY} 08:00:00` }))
    await bumpAfter(() => db.from('sleep_records').where({ user_id: user.id, date: minusDays(TODAY, 4) }).delete())
    const lines = await whole(client, user, apiKey)
    assert.deepEqual(
      JSON.parse(lines.list).map((n: any) => [n.date, n.sleep_score, n.hrv_avg]),
      [
        [TODAY, 70, 77.5],
        [minusDays(TODAY, 1), 33, null],
        [minusDays(TODAY, 2), 70, null],
        [minusDays(TODAY, 3), 70, null],
        [minusDays(TODAY, 9), 12, null],
      ]
    )
    const rows = await paged(client, user, apiKey)
    assert.equal(lines.list, rows.list)
    assert.equal(lines.csv, rows.csv)
  })
})

/**
 * A read that finds a window's lines incomplete renders them again inside a transaction that
 * first takes the user's row, the row every writer of a night takes before it rewrites lines
 * (README "Rendered sleep lines"). Real commits here, not the other groups' global transaction:
 * the writer and the read run on their own connections.
 */
test.group('Sleep lines, a read rendering again beside a writer', (group) => {
  group.each.setup(() => truncateDatabase())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('a window across months and a year end, read on the driver itself, is in order and equal to its pages', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    // 2025-11-03 … 2026-03-01: five calendar months over a year end, the first and last partial.
    for (let n = 0; n < 119; n += 4) await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    for (let n = 0; n < 119; n += 12) await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()

    const lines = await whole(client, user, apiKey, 120)
    assert.deepEqual(lines, await paged(client, user, apiKey, 120))
    const dates = (JSON.parse(lines.list) as Array<{ date: string }>).map((item) => item.date)
    assert.lengthOf(dates, 30)
    assert.deepEqual(dates, [...dates].sort().reverse())
    assert.deepEqual(lines.csv.split('\r\n').slice(1, -1).map((row) => row.slice(0, 10)), [...dates].reverse())
    // Windows inside one month (its one day, on PostgreSQL one range of lines) and from one to two months.
    for (const days of [1, 2, 29, 30, 32]) assert.deepEqual(await whole(client, user, apiKey, days), await paged(client, user, apiKey, days), `days=${days}`)
  })

  test('PostgreSQL: the whole months are read as stored, follow every write and are used only while they agree with the lines', async ({ client, assert }) => {
    const postgres = db.connection().dialect.name === 'postgres'
    const { user, apiKey } = await userWithApiKey()
    // 2025-11-03 … 2026-03-01: December, January and February are whole months of the window.
    for (let n = 0; n < 119; n += 2) await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n), sleepScore: 70 }).create()
    for (let n = 0; n < 119; n += 5) await NightlyRechargeFactory.merge({ userId: user.id, date: minusDays(TODAY, n) }).create()
    const months = async () => (postgres ? await db.from(SLEEP_MONTHS_TABLE).where('user_id', user.id).orderBy('month') : [])
    /** Each month's row equal to its lines joined, as the reads join them (SQLite keeps no months). */
    const assertMonthsMatchLines = async () => {
      if (!postgres) return
      const lines = await db.from(SLEEP_LINES_TABLE).where('user_id', user.id).orderBy('date')
      const expected = new Map<string, { lines: number; json: string[]; csv: string[] }>()
      for (const line of lines) {
        const month = expected.get(line.date.slice(0, 7)) ?? { lines: 0, json: [], csv: [] }
        expected.set(line.date.slice(0, 7), { lines: month.lines + 1, json: [line.json, ...month.json], csv: [...month.csv, line.csv] })
      }
      assert.deepEqual(
        (await months()).map((row) => [row.month, row.format, row.lines, row.json, row.csv]),
        [...expected].map(([month, joined]) => [month, codeDigest(), joined.lines, joined.json.join(','), joined.csv.join('')])
      )
    }

    const before = await whole(client, user, apiKey, 120)
    assert.deepEqual(before, await paged(client, user, apiKey, 120))
    if (postgres) {
      assert.deepEqual((await months()).map((row) => row.month), ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03'])
      await assertMonthsMatchLines()
    }

    // Inside whole months, by plain SQL: a night changed (its line and month dropped by the
    // triggers) and a night added (no line to drop: the month stays, the count of nights differs).
    await db.from('sleep_records').where({ user_id: user.id, date: '2026-01-14' }).update({ sleep_score: 12 })
    await db.table('sleep_records').insert({ user_id: user.id, date: '2025-12-12', sleep_score: 21, created_at: `${TODAY} 08:00:00` })
    await DataVersionService.bump(db.connection(), user.id)
    const scoreOn = (list: string, date: string) => (JSON.parse(list) as Array<{ date: string; sleep_score: number }>).find((item) => item.date === date)?.sleep_score
    let after = await whole(client, user, apiKey, 120)
    assert.deepEqual([scoreOn(after.list, '2026-01-14'), scoreOn(after.list, '2025-12-12')], [12, 21])
    assert.deepEqual(after, await paged(client, user, apiKey, 120))
    await assertMonthsMatchLines()

    // The sync's upsert and a model save rewrite their months in the same transaction.
    await upsertRows(db.connection(), 'sleep_records', user.id, ['date'], [{ date: '2025-12-09', sleepScore: 33 }], DateTime.utc())
    const night = await SleepRecord.query().where({ userId: user.id, date: '2026-02-11' }).firstOrFail()
    await night.merge({ sleepScore: 44 }).save()
    await SleepRecordFactory.merge({ userId: user.id, date: '2026-01-03', sleepScore: 55 }).create()
    await assertMonthsMatchLines()
    after = await whole(client, user, apiKey, 120)
    assert.deepEqual(['2025-12-09', '2026-02-11', '2026-01-03'].map((date) => scoreOn(after.list, date)), [33, 44, 55])
    assert.deepEqual(after, await paged(client, user, apiKey, 120))

    // A month's row lost, or one that claims a line the month no longer has: never served.
    if (postgres) {
      await db.from(SLEEP_MONTHS_TABLE).where({ user_id: user.id, month: '2025-12' }).delete()
      await db.from(SLEEP_MONTHS_TABLE).where({ user_id: user.id, month: '2026-02' }).update({ json: '{"stale":true}', csv: 'stale\r\n', lines: 1 })
      await DataVersionService.bump(db.connection(), user.id)
      assert.deepEqual(await whole(client, user, apiKey, 120), after)
      await assertMonthsMatchLines()
    }

    // Every night of a month deleted by a plain query: the read renders the window again, without the month's row.
    await SleepRecord.query().where('userId', user.id).whereBetween('date', ['2026-01-01', '2026-01-31']).delete()
    await DataVersionService.bump(db.connection(), user.id)
    after = await whole(client, user, apiKey, 120)
    assert.notInclude(after.list, '"date":"2026-01-')
    assert.deepEqual(after, await paged(client, user, apiKey, 120))
    if (postgres) assert.notInclude((await months()).map((row) => row.month), '2026-01')

    // The edge months' lines are read as stored, not rendered again: a marker put in one shows,
    // in a window of that one day and in one across months.
    if (postgres) {
      await db.from(SLEEP_LINES_TABLE).where({ user_id: user.id, date: TODAY }).update({ json: '{"marker":1}' })
      await DataVersionService.bump(db.connection(), user.id)
      for (const days of [1, 2, 120]) assert.include((await whole(client, user, apiKey, days)).list, '{"marker":1}', `days=${days}`)
    }
  })

  test('waits for the writer holding the user, answers with its write and never stores an older line over it', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const nights: SleepRecord[] = []
    for (let n = 0; n < 5; n++) nights.push(await SleepRecordFactory.merge({ userId: user.id, date: minusDays(TODAY, n), sleepScore: 70 }).create())
    // The night's line dropped, as a write made outside HRVault drops it: the next read renders the
    // window again, while the writer below writes that same line anew.
    const date = minusDays(TODAY, 1)
    await db.from(SLEEP_LINES_TABLE).where({ user_id: user.id, date }).delete()

    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let saved!: () => void
    const written = new Promise<void>((resolve) => (saved = resolve))
    const writer = db.transaction(async (trx) => {
      await nights[1].useTransaction(trx).merge({ sleepScore: 99 }).save()
      saved()
      await held
    })
    await written

    let answered = false
    const read = client
      .get(`/api/v1/users/${user.externalId}/sleep`)
      .qs({ days: 10 })
      .header('X-API-Key', apiKey)
      .then((response) => {
        answered = true
        return response
      })
    await new Promise((resolve) => setTimeout(resolve, 400))
    assert.isFalse(answered, 'the read waits while the writer holds the user')
    release()
    await writer

    const response = await read
    response.assertStatus(200)
    const items = response.body() as Array<{ date: string; sleep_score: number }>
    assert.lengthOf(items, 5)
    assert.equal(items.find((item) => item.date === date)?.sleep_score, 99)
    assert.lengthOf(await db.from(SLEEP_LINES_TABLE).where('user_id', user.id), 5)
    const line = await db.from(SLEEP_LINES_TABLE).where({ user_id: user.id, date }).firstOrFail()
    assert.include(JSON.parse(line.json), { date, sleep_score: 99 })
  })
})

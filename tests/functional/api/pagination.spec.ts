import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { nextLink } from '#tests/helpers/pagination'
import { daysAgo, NOW, seed } from '#tests/functional/api/v1/analytics/helpers'
import { steady } from '#tests/functional/api/v1/analytics/scenarios'

/** Three years of nightly sleep, recharge, cardio load and activity, ending today. */
const HISTORY_DAYS = 3 * 365
const WHOLE_HISTORY = { from: daysAgo(HISTORY_DAYS - 1) }

type Owner = Awaited<ReturnType<typeof userWithApiKey>>

async function userWithHistory() {
  const owner = await userWithApiKey()
  await seed(owner.user.id, HISTORY_DAYS, steady)
  return owner
}

const base = (owner: Owner, path: string) => `/api/v1/users/${owner.user.externalId}/${path}`

/** Follows `Link: rel="next"` from the first page; every page's answer, in order. */
async function walk(client: any, owner: Owner, first: string, qs: Record<string, unknown>) {
  const pages: any[] = []
  let response = await client.get(first).qs(qs).header('X-API-Key', owner.apiKey)
  while (true) {
    response.assertStatus(200)
    pages.push(response)
    const next = nextLink(response.header('link'))
    if (!next) return pages
    if (pages.length >= 50) throw new Error('the walk does not end')
    response = await client.get(next).header('X-API-Key', owner.apiKey)
  }
}

test.group('API | pagination of data lists and exports', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(NOW))

  test('3 years of sleep in pages of 100: every night once, newest first, Link until the last page', async ({ client, assert }) => {
    const owner = await userWithHistory()
    const pages = await walk(client, owner, base(owner, 'sleep'), { ...WHOLE_HISTORY, limit: 100 })

    assert.lengthOf(pages, 11)
    const dates = pages.flatMap((page) => page.body().map((row: { date: string }) => row.date))
    assert.deepEqual(
      dates,
      Array.from({ length: HISTORY_DAYS }, (_, i) => daysAgo(i))
    )
    for (const [i, page] of pages.entries()) {
      assert.isArray(page.body())
      assert.lengthOf(page.body(), i < 10 ? 100 : 95)
      assert.equal(page.header('x-total-count'), String(HISTORY_DAYS))
      const next = nextLink(page.header('link'))
      if (i < 10) {
        // The next page keeps the request's other parameters.
        assert.match(next!, new RegExp(`^/api/v1/users/${owner.user.externalId}/sleep\\?`))
        const query = new URLSearchParams(next!.split('?')[1])
        assert.equal(query.get('from'), WHOLE_HISTORY.from)
        assert.equal(query.get('limit'), '100')
        assert.match(query.get('cursor')!, /^[A-Za-z0-9_-]+$/)
      } else {
        assert.isNull(next)
      }
    }
    // The same rows as the whole range in one answer.
    const whole = await client.get(base(owner, 'sleep')).qs(WHOLE_HISTORY).header('X-API-Key', owner.apiKey)
    assert.deepEqual(
      pages.flatMap((page) => page.body()),
      whole.body()
    )
  })

  test('without limit nothing changes: the default window, no Link, no X-Total-Count', async ({ client, assert }) => {
    const owner = await userWithHistory()
    const response = await client.get(base(owner, 'recharge')).header('X-API-Key', owner.apiKey)
    response.assertStatus(200)
    assert.lengthOf(response.body(), 30)
    assert.notExists(response.header('link'))
    assert.notExists(response.header('x-total-count'))

    // The last page of a short list has the count and no Link.
    const single = await client.get(base(owner, 'recharge')).qs({ days: 7, limit: 10 }).header('X-API-Key', owner.apiKey)
    assert.lengthOf(single.body(), 7)
    assert.equal(single.header('x-total-count'), '7')
    assert.notExists(single.header('link'))
  })

  test('a page answered from the read cache keeps its Link and X-Total-Count', async ({ client, assert }) => {
    const owner = await userWithHistory()
    const get = () => client.get(base(owner, 'cardio-load')).qs({ days: 90, limit: 40 }).header('X-API-Key', owner.apiKey)
    const first = await get()
    const again = await get()
    assert.equal(again.header('etag'), first.header('etag'))
    assert.equal(again.header('link'), first.header('link'))
    assert.equal(again.header('x-total-count'), '90')
    assert.deepEqual(again.body(), first.body())
  })

  test('sleep.csv in pages of 400: each page a CSV with its header, together every row once, oldest first', async ({ client, assert }) => {
    const owner = await userWithHistory()
    const pages = await walk(client, owner, base(owner, 'export/sleep.csv'), { ...WHOLE_HISTORY, limit: 400 })

    assert.lengthOf(pages, 3)
    const whole = (await client.get(base(owner, 'export/sleep.csv')).qs(WHOLE_HISTORY).header('X-API-Key', owner.apiKey)).text()
    const [header, ...allRows] = whole.trim().split('\r\n')
    assert.lengthOf(allRows, HISTORY_DAYS)
    const rows: string[] = []
    for (const [i, page] of pages.entries()) {
      assert.equal(page.header('content-type'), 'text/csv; charset=utf-8')
      assert.equal(page.header('x-total-count'), String(HISTORY_DAYS))
      const [pageHeader, ...pageRows] = page.text().trim().split('\r\n')
      assert.equal(pageHeader, header)
      assert.lengthOf(pageRows, i < 2 ? 400 : HISTORY_DAYS - 800)
      rows.push(...pageRows)
    }
    assert.deepEqual(rows, allRows)
    assert.isTrue(rows[0].startsWith(`${daysAgo(HISTORY_DAYS - 1)},`))
  })

  test('recharge.jsonl in pages of 500: every stored row once, oldest first', async ({ client, assert }) => {
    const owner = await userWithHistory()
    const pages = await walk(client, owner, base(owner, 'export/recharge.jsonl'), { ...WHOLE_HISTORY, limit: 500 })

    assert.lengthOf(pages, 3)
    const lines = pages.flatMap((page) => page.text().trim().split('\n'))
    const whole = (await client.get(base(owner, 'export/recharge.jsonl')).qs(WHOLE_HISTORY).header('X-API-Key', owner.apiKey)).text()
    assert.deepEqual(lines, whole.trim().split('\n'))
    const dates = lines.map((line) => JSON.parse(line).date)
    assert.lengthOf(dates, HISTORY_DAYS)
    assert.lengthOf(new Set(dates), HISTORY_DAYS)
    assert.deepEqual(dates, [...dates].sort())
    for (const page of pages) assert.equal(page.header('x-total-count'), String(HISTORY_DAYS))
    assert.isNull(nextLink(pages[2].header('link')))
  })

  test('the next page starts right after the last row of the page before', async ({ client, assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 30, steady)
    const first = await client.get(base(owner, 'sleep')).qs({ days: 30, limit: 10 }).header('X-API-Key', owner.apiKey)
    const seen = first.body().map((row: { date: string }) => row.date)
    const second = await client.get(nextLink(first.header('link'))!).header('X-API-Key', owner.apiKey)
    const more = second.body().map((row: { date: string }) => row.date)
    assert.lengthOf(more, 10)
    assert.equal(more[0], daysAgo(10))
    assert.notIncludeMembers(more, seen)
  })

  test('{0}: lists ordered by time walk in pages of 3 to the same rows as one answer')
    .with([['exercises'], ['temperature/body'], ['spo2']] as const)
    .run(async ({ client, assert }, [path]) => {
      const owner = await userWithApiKey()
      await seedTimed(owner.user.id)
      const qs = { from: daysAgo(800) }
      const pages = await walk(client, owner, base(owner, path), { ...qs, limit: 3 })
      const whole = await client.get(base(owner, path)).qs(qs).header('X-API-Key', owner.apiKey)
      assert.lengthOf(whole.body(), 12)
      assert.lengthOf(pages, 4)
      assert.deepEqual(
        pages.flatMap((page) => page.body()),
        whole.body()
      )
      for (const page of pages) assert.equal(page.header('x-total-count'), '12')
    })
})

/**
 * Twelve rows per timed list over two years, several on one day (two sessions a day, two body
 * temperature measurement types at one start time), inserted out of time order so ids do not follow it.
 */
async function seedTimed(userId: number) {
  const createdAt = new Date().toISOString()
  const exercises: Record<string, unknown>[] = []
  const temperatures: Record<string, unknown>[] = []
  const spo2: Record<string, unknown>[] = []
  for (const [n, ago] of [700, 3, 400, 0, 30, 5].entries()) {
    const date = daysAgo(ago)
    for (const time of ['18:30:00', '07:15:00']) {
      exercises.push({ user_id: userId, polar_exercise_id: `ex-${n}-${time}`, start_time: `${date} ${time}`, start_date: date, sport: 'RUNNING', created_at: createdAt })
    }
    for (const type of ['TM_SKIN_TEMPERATURE', 'TM_CORE_TEMPERATURE']) {
      temperatures.push({ user_id: userId, start_time: `${date} 01:00:00`, start_date: date, measurement_type: type, created_at: createdAt })
    }
    for (const [k, time] of ['22:00:00', '06:00:00'].entries()) {
      const timestamp = Date.parse(`${date}T${time}Z`)
      spo2.push({ user_id: userId, test_timestamp: timestamp + k, test_time: `${date} ${time}`, test_date: date, blood_oxygen_percent: 97, created_at: createdAt })
    }
  }
  await db.table('exercises').multiInsert(exercises)
  await db.table('body_temperatures').multiInsert(temperatures)
  await db.table('spo2_tests').multiInsert(spo2)
}

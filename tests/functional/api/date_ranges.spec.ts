import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { daysAgo, NOW, seed, TODAY } from '#tests/functional/api/v1/analytics/helpers'
import { steady } from '#tests/functional/api/v1/analytics/scenarios'

/** Three years of nightly sleep, recharge, cardio load and activity, ending today. */
const HISTORY_DAYS = 3 * 365

async function userWithHistory() {
  const owner = await userWithApiKey()
  await seed(owner.user.id, HISTORY_DAYS, steady)
  return owner
}

type Owner = Awaited<ReturnType<typeof userWithApiKey>>

function get(client: any, owner: Owner, path: string, qs: Record<string, unknown> = {}) {
  return client.get(`/api/v1/users/${owner.user.externalId}/${path}`).qs(qs).header('X-API-Key', owner.apiKey)
}

/** Every problem field of a 422, with its rule. */
function problemFields(response: any): string[] {
  response.assertStatus(422)
  response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
  return response.body().errors.map((error: { field: string; rule: string }) => `${error.field}:${error.rule}`)
}

test.group('API | date ranges over the whole history', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(NOW))

  test('{0}: from/to reach rows older than 365 days, inclusive, newest first')
    .with([['sleep'], ['recharge'], ['activity'], ['cardio-load']] as const)
    .run(async ({ client, assert }, [path]) => {
      const owner = await userWithHistory()
      const from = daysAgo(1000)
      const to = daysAgo(990)
      const response = await get(client, owner, path, { from, to })
      response.assertStatus(200)
      const dates = response.body().map((row: { date: string }) => row.date)
      assert.deepEqual(dates, Array.from({ length: 11 }, (_, i) => daysAgo(990 + i)))
      assert.notExists(response.header('link'))
      assert.notExists(response.header('x-total-count'))
    })

  test('from alone runs to today; a range may span the whole history; days keeps its default', async ({ client, assert }) => {
    const owner = await userWithHistory()

    const since = await get(client, owner, 'sleep', { from: daysAgo(400) })
    since.assertStatus(200)
    assert.lengthOf(since.body(), 401)
    assert.equal(since.body()[0].date, TODAY)
    assert.equal(since.body()[400].date, daysAgo(400))

    const everything = await get(client, owner, 'sleep', { from: '2000-01-01', to: '2099-12-31' })
    assert.lengthOf(everything.body(), HISTORY_DAYS)

    const byDefault = await get(client, owner, 'sleep')
    assert.deepEqual(
      byDefault.body().map((row: { date: string }) => row.date),
      Array.from({ length: 7 }, (_, i) => daysAgo(i))
    )
    assert.lengthOf((await get(client, owner, 'recharge')).body(), 30)
    assert.lengthOf((await get(client, owner, 'sleep', { days: 365 })).body(), 365)
    ;(await get(client, owner, 'sleep', { days: 366 })).assertStatus(422)

    // A from in the future is an empty window, not an error (the client's today may be ahead of ours).
    const future = await get(client, owner, 'sleep', { from: '2099-01-01' })
    future.assertStatus(200)
    assert.deepEqual(future.body(), [])
  })

  test('export summary and CSV take the range too; the summary counts its days', async ({ client, assert }) => {
    const owner = await userWithHistory()
    const from = daysAgo(1094)
    const to = daysAgo(1000)

    const summary = await get(client, owner, 'export/summary', { from, to })
    summary.assertStatus(200)
    assert.include(summary.body(), { days: 95, from_date: from, to_date: to })
    assert.equal(summary.body().record_counts.sleep, 95)

    const csv = await get(client, owner, 'export/sleep.csv', { from, to })
    csv.assertStatus(200)
    const lines = csv.text().trim().split('\r\n')
    assert.lengthOf(lines, 96)
    assert.isTrue(lines[1].startsWith(`${from},`))
    assert.isTrue(lines[95].startsWith(`${to},`))
    assert.include(csv.header('content-disposition'), `_${from}_${to}.csv`)

    const jsonl = await get(client, owner, 'export/recharge.jsonl', { from, to })
    jsonl.assertStatus(200)
    assert.lengthOf(jsonl.text().trim().split('\n'), 95)
  })

  test('422 naming the parameter: {0}')
    .with([
      ['days with from', { days: 7, from: '2025-01-01' }, ['days:exclusive']],
      ['days with to', { days: 7, to: '2025-01-01' }, ['days:exclusive']],
      ['from after to', { from: '2025-02-01', to: '2025-01-31' }, ['from:dateRange']],
      ['to alone', { to: '2025-01-31' }, ['to:requiredWith']],
      ['impossible from', { from: '2026-02-30' }, ['from:calendarDate']],
      ['impossible to', { from: '2026-02-01', to: '2026-02-30' }, ['to:calendarDate']],
      ['malformed from', { from: '2026-2-1' }, ['from:regex']],
      ['days out of range', { days: 0 }, ['days:range']],
      ['limit 0', { limit: 0 }, ['limit:range']],
      ['limit 1001', { limit: 1001 }, ['limit:range']],
      ['limit not a number', { limit: 'ten' }, ['limit:number']],
      ['a made-up cursor', { limit: 10, cursor: 'not-a-cursor' }, ['cursor:cursor']],
    ] as const)
    .run(async ({ client, assert }, [, qs, expected]) => {
      const owner = await userWithApiKey()
      assert.deepEqual(problemFields(await get(client, owner, 'sleep', qs)), [...expected])
    })

  test('a cursor of another list (an id-only cursor) is a 422 on cursor', async ({ client, assert }) => {
    const owner = await userWithApiKey()
    const idOnly = Buffer.from(JSON.stringify({ v: 1, after: 5 })).toString('base64url')
    assert.deepEqual(problemFields(await get(client, owner, 'sleep', { limit: 10, cursor: idOnly })), ['cursor:cursor'])
    assert.deepEqual(problemFields(await get(client, owner, 'export/sleep.csv', { limit: 10, cursor: idOnly })), ['cursor:cursor'])
  })

  test('an unknown query parameter is a 422 naming it and listing the accepted ones', async ({ client, assert }) => {
    const owner = await userWithApiKey()

    const typo = await get(client, owner, 'sleep', { form: '2025-01-01' })
    assert.deepEqual(problemFields(typo), ['form:unknownParameter'])
    assert.equal(typo.body().errors[0].message, 'Unknown parameter "form": it accepts days, from, to, limit, cursor')

    const summary = await get(client, owner, 'export/summary', { limit: 5 })
    assert.equal(summary.body().errors[0].message, 'Unknown parameter "limit": it accepts days, from, to')

    const detail = await get(client, owner, `sleep/${TODAY}`, { days: 7 })
    assert.deepEqual(problemFields(detail), ['days:unknownParameter'])
    assert.equal(detail.body().errors[0].message, 'Unknown parameter "days": it accepts none')

    const analytics = await get(client, owner, 'insights', { days: 30 })
    assert.deepEqual(problemFields(analytics), ['days:unknownParameter'])

    const users = await client.get('/api/v1/users').qs({ page: 2 }).header('X-API-Key', owner.apiKey)
    assert.equal(users.body().errors[0].message, 'Unknown parameter "page": it accepts limit, cursor')
  })

  test('the OpenAPI document lists from, to, limit and cursor on every data list and export', async ({ client, assert }) => {
    const document = (await client.get('/schema/openapi.json')).body()
    const paths = Object.keys(document.paths).filter(
      (path) => path.startsWith('/api/v1/users/{user_id}/') && document.paths[path].get?.parameters?.some((p: { name: string }) => p.name === 'days')
    )
    assert.includeMembers(paths, [
      '/api/v1/users/{user_id}/sleep',
      '/api/v1/users/{user_id}/activity-samples',
      '/api/v1/users/{user_id}/export/sleep.csv',
      '/api/v1/users/{user_id}/export/{type}.jsonl',
      '/api/v1/users/{user_id}/export/summary',
    ])
    for (const path of paths) {
      const names = document.paths[path].get.parameters.map((p: { name: string }) => p.name)
      assert.includeMembers(names, ['days', 'from', 'to'], path)
      if (!path.endsWith('/export/summary')) {
        assert.includeMembers(names, ['limit', 'cursor'], path)
        assert.properties(document.paths[path].get.responses['200'].headers, ['Link', 'X-Total-Count'], path)
      }
    }
  })
})

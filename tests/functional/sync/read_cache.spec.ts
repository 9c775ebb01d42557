import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { DataVersionService } from '#services/data_version_service'
import { sqlDuring } from '#tests/helpers/sql_log'
import { completeToken, simulatorPerTest } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'

// The read cache of the data and analytics API, seen through real syncs from the simulator (hence
// among the sync specs: real commits on truncated tables, not a rolled-back global transaction).

test.group('API v1 | read cache', (group) => {
  simulatorPerTest(group, TODAY)

  const sync = async (client: any, user: string, days: number) =>
    (await client.post(`/api/v1/users/${user}/sync/trigger?days=${days}`).header('X-Provider-Token', completeToken(user))).assertStatus(200)

  test('a repeated GET is answered from the cache without reading the data tables; If-None-Match gets 304', async ({ client, assert }) => {
    await sync(client, 'cached', 7)
    const first = await client.get('/api/v1/users/cached/sleep?days=28')
    first.assertStatus(200)
    assert.lengthOf(first.body(), 7)
    const etag = first.header('etag')!
    assert.match(etag, /^"[\w-]+"$/)
    assert.equal(first.header('cache-control'), 'private, no-cache')

    let second: any
    const queries = await sqlDuring(async () => {
      second = await client.get('/api/v1/users/cached/sleep?days=28')
    })
    second.assertStatus(200)
    assert.equal(second.text(), first.text())
    assert.equal(second.header('etag'), etag)
    assert.match(second.header('content-type'), /^application\/json/)
    assert.isFalse(queries.some((sql) => /sleep_records|nightly_recharges/.test(sql)), queries.join('\n'))

    const notModified = await client.get('/api/v1/users/cached/sleep?days=28').header('If-None-Match', etag)
    notModified.assertStatus(304)
    assert.equal(notModified.text(), '')
    assert.equal(notModified.header('etag'), etag)
    // Still counted against the rate limit.
    assert.isDefined(notModified.header('ratelimit-remaining'))
    assert.isBelow(Number(notModified.header('ratelimit-remaining')), Number(second!.header('ratelimit-remaining')))

    // Another query string is another entry.
    const week = await client.get('/api/v1/users/cached/sleep?days=3')
    assert.lengthOf(week.body(), 3)
  })

  test('a sync that stores data changes every cached answer at once (raw data, baselines, insights, CSV)', async ({ client, assert }) => {
    await sync(client, 'fresh', 3)
    const paths = ['sleep?days=28', 'baselines', 'insights', 'analytics/status', 'export/sleep.csv?days=28']
    const before = new Map<string, { text: string; etag: string }>()
    for (const path of paths) {
      const response = await client.get(`/api/v1/users/fresh/${path}`)
      response.assertStatus(200)
      before.set(path, { text: response.text(), etag: response.header('etag') ?? '"none"' })
    }
    assert.lengthOf(JSON.parse(before.get('sleep?days=28')!.text), 3)

    // Same "today", a longer window: new rows in the same tables.
    await sync(client, 'fresh', 10)
    const sleep = await client.get('/api/v1/users/fresh/sleep?days=28')
    assert.lengthOf(sleep.body(), 10)
    for (const path of paths) {
      const response = await client.get(`/api/v1/users/fresh/${path}`).header('If-None-Match', before.get(path)!.etag)
      response.assertStatus(200)
      assert.notEqual(response.header('etag'), before.get(path)!.etag, path)
      assert.notEqual(response.text(), before.get(path)!.text, path)
    }
    const csv = await client.get('/api/v1/users/fresh/export/sleep.csv?days=28')
    assert.equal(csv.text().trim().split('\n').length, 11)
  })

  test('the cache key is the data version: a write that bumps it is seen, baselines recalculated by POST are seen', async ({ client, assert }) => {
    await sync(client, 'versioned', 14)
    const user = await User.findByOrFail('externalId', 'versioned')
    const read = async () => (await client.get('/api/v1/users/versioned/sleep?days=1')).body()[0].sleep_score

    const score = await read()
    // A write that does not bump the version (not something HRVault does) is not seen: proof the answer is cached.
    await db.from('sleep_records').where({ user_id: user.id, date: TODAY }).update({ sleep_score: score === 50 ? 51 : 50 })
    assert.equal(await read(), score)
    // The same write with the bump, as every writer does it, is seen at once.
    await db.transaction(async (trx) => {
      await trx.from('sleep_records').where({ user_id: user.id, date: TODAY }).update({ sleep_score: 42 })
      await DataVersionService.bump(trx, user.id)
    })
    assert.equal(await read(), 42)

    const baselines = await client.get('/api/v1/users/versioned/baselines')
    const recalculated = await client.post('/api/v1/users/versioned/baselines/calculate')
    recalculated.assertStatus(200)
    const after = await client.get('/api/v1/users/versioned/baselines').header('If-None-Match', baselines.header('etag')!)
    after.assertStatus(200)
    assert.notEqual(after.header('etag'), baselines.header('etag'))
  })

  test('errors are never cached: an unknown user stays 404 until it exists, a bad query stays 422', async ({ client, assert }) => {
    const missing = await client.get('/api/v1/users/later/sleep')
    missing.assertStatus(404)
    assert.isUndefined(missing.header('etag'))
    await sync(client, 'later', 2)
    const found = await client.get('/api/v1/users/later/sleep')
    found.assertStatus(200)
    assert.lengthOf(found.body(), 2)
    for (let i = 0; i < 2; i++) {
      const bad = await client.get('/api/v1/users/later/sleep?days=abc')
      bad.assertStatus(422)
      assert.match(bad.header('content-type')!, /problem\+json/)
    }
  })

  test('a cached CSV export keeps its headers and bytes', async ({ client, assert }) => {
    await sync(client, 'csv', 5)
    const first = await client.get('/api/v1/users/csv/export/sleep.csv?days=7')
    first.assertStatus(200)
    // The first answer streams (its validator is known only at the end); repeats come from the cache.
    const second = await client.get('/api/v1/users/csv/export/sleep.csv?days=7')
    second.assertStatus(200)
    assert.equal(second.text(), first.text())
    assert.equal(second.header('content-type'), first.header('content-type'))
    assert.equal(second.header('content-disposition'), first.header('content-disposition'))
    assert.isDefined(second.header('etag'))
    const third = await client.get('/api/v1/users/csv/export/sleep.csv?days=7')
    assert.equal(third.header('etag'), second.header('etag'))
    const notModified = await client.get('/api/v1/users/csv/export/sleep.csv?days=7').header('If-None-Match', second.header('etag')!)
    notModified.assertStatus(304)
  })
})

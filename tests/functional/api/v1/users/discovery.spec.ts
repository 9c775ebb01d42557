import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { DATA_TYPES } from '#services/records/data_types'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { nextLink } from '#tests/helpers/pagination'
import { completeToken, simulatorPerTest } from '#tests/functional/sync/simulator_context'

test.group('API v1 | users discovery', (group) => {
  simulatorPerTest(group)

  test('a service key lists every user with connection, data span, data days and last sync', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const synced = await client
      .post('/api/v1/users/synced/sync/trigger')
      .qs({ days: 10 })
      .header('X-API-Key', key)
      .header('X-Provider-Token', completeToken('synced'))
    synced.assertStatus(200)
    await createUser('bare')
    const oauth = await createUser('viaoauth')
    oauth.connectedAt = DateTime.now()
    await oauth.save()
    await (await app.container.make(ProviderTokenService)).store(oauth, 'oauth-token')

    const response = await client.get('/api/v1/users').header('X-API-Key', key)
    response.assertStatus(200)
    const users = response.body()
    assert.isArray(users)
    assert.deepEqual(
      users.map((u: any) => u.user_id),
      ['synced', 'bare', 'viaoauth']
    )
    assert.notExists(response.header('link'))
    const [s, bare, viaOauth] = users

    assert.equal(s.connection, 'token')
    assert.isTrue(s.polar_account_bound)
    assert.isTrue(s.active)
    assert.equal(s.last_data_date, '2026-03-15')
    assert.match(s.first_data_date, /^2026-03-0[1-6]$/)
    assert.sameMembers(Object.keys(s.data_days), DATA_TYPES.map((t) => t.key))
    assert.isAtLeast(s.data_days.sleep, 8)
    assert.isAtMost(s.data_days.sleep, 10)
    assert.equal(s.data_days.activity, 10)
    assert.equal(s.last_sync.run_id, synced.body().run_id)
    assert.equal(s.last_sync.status, 'success')
    assert.equal(s.last_sync.trigger, 'api')
    assert.match(s.last_sync.finished_at, /Z$/)
    assert.match(s.last_successful_sync_at, /Z$/)
    assert.notInclude(JSON.stringify(users), completeToken('synced'))
    assert.notInclude(JSON.stringify(users), 'oauth-token')

    assert.equal(bare.connection, 'none')
    assert.isFalse(bare.polar_account_bound)
    assert.isNull(bare.first_data_date)
    assert.isNull(bare.last_data_date)
    assert.isNull(bare.last_sync)
    assert.equal(bare.data_days.sleep, 0)
    assert.equal(viaOauth.connection, 'oauth')
    assert.match(viaOauth.connected_at, /Z$/)

    const one = await client.get('/api/v1/users/synced').header('X-API-Key', key)
    one.assertStatus(200)
    assert.deepEqual(one.body(), s)
    const unknown = await client.get('/api/v1/users/nobody').header('X-API-Key', key)
    unknown.assertStatus(404)
    assert.equal(unknown.header('content-type'), 'application/problem+json; charset=utf-8')
  })

  test('pages of the user list walk every user once, by limit and the Link cursor', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const created = []
    for (let i = 0; i < 7; i++) created.push((await createUser(`u${i}`)).externalId)
    const seen: string[] = []
    let url: string | null = '/api/v1/users?limit=3'
    let pages = 0
    while (url) {
      const response = await client.get(url).header('X-API-Key', key)
      response.assertStatus(200)
      assert.isAtMost(response.body().length, 3)
      seen.push(...response.body().map((u: any) => u.user_id))
      url = nextLink(response.header('link'))
      pages++
    }
    assert.equal(pages, 3)
    assert.deepEqual(seen, created)

    for (const qs of [{ limit: 0 }, { limit: 1001 }, { cursor: '!!' }]) {
      const bad = await client.get('/api/v1/users').qs(qs).header('X-API-Key', key)
      bad.assertStatus(422)
      assert.equal(bad.body().errors[0].field, Object.keys(qs)[0])
    }
  })

  test('a user-scoped key sees only its own user', async ({ client, assert }) => {
    await createUser('someone_else')
    const { user, apiKey } = await userWithApiKey()
    await createUser('after')
    const list = await client.get('/api/v1/users').header('X-API-Key', apiKey)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().map((u: any) => u.user_id),
      [user.externalId]
    )
    ;(await client.get(`/api/v1/users/${user.externalId}`).header('X-API-Key', apiKey)).assertStatus(200)
    ;(await client.get('/api/v1/users/someone_else').header('X-API-Key', apiKey)).assertStatus(403)
    ;(await client.get('/api/v1/users')).assertStatus(401)
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import { createUser, serviceApiKey } from '#tests/helpers/fixtures'

const PROBLEM = /^application\/problem\+json/

test.group('HTTP | error contract', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('an unknown API route is a 404 problem, not HTML', async ({ client, assert }) => {
    const response = await client.get('/api/v1/does-not-exist')
    response.assertStatus(404)
    assert.match(response.header('content-type') ?? '', PROBLEM)
    assert.containsSubset(response.body(), { type: 'about:blank', title: 'Not Found', status: 404 })
    assert.isString(response.body().detail)
  })

  test('days={$self} is a 422 problem with errors[]')
    .with(['0', '366', 'abc', '1.5', '-3'])
    .run(async ({ client, assert }, days) => {
      const user = await createUser()
      const response = await client.get(`/api/v1/users/${user.externalId}/sleep`).qs({ days })
      response.assertStatus(422)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      assert.equal(response.body().errors[0].field, 'days')
      assert.properties(response.body().errors[0], ['field', 'rule', 'message'])
    })

  test('days 1 and 365 are accepted', async ({ client }) => {
    const user = await createUser()
    for (const days of [1, 365]) {
      const response = await client.get(`/api/v1/users/${user.externalId}/sleep`).qs({ days })
      response.assertStatus(200)
    }
  })

  test('a malformed user_id is a 422', async ({ client }) => {
    const response = await client.get(`/api/v1/users/${'x'.repeat(101)}/sleep`)
    response.assertStatus(422)
  })

  test('malformed JSON on an API route is a 400 problem', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client
      .post(`/api/v1/users/${user.externalId}/sleep`)
      .header('Content-Type', 'application/json')
      .json('{"broken":')
    assert.include([400, 404, 405], response.status())
    assert.match(response.header('content-type') ?? '', PROBLEM)
  })
})

test.group('HTTP | rate limiting', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(() => env.set('RATE_LIMIT_REQUESTS', '1000'))

  test('429 after the limit, with Retry-After and RateLimit-* headers', async ({ client, assert }) => {
    env.set('RATE_LIMIT_REQUESTS', '3')
    const user = await createUser()
    const key = await serviceApiKey('limited')
    const url = `/api/v1/users/${user.externalId}/sleep`
    for (let i = 0; i < 3; i++) {
      const ok = await client.get(url).header('X-API-Key', key)
      ok.assertStatus(200)
      assert.equal(ok.header('ratelimit-limit'), '3')
      assert.equal(ok.header('ratelimit-remaining'), String(2 - i))
    }
    const limited = await client.get(url).header('X-API-Key', key)
    limited.assertStatus(429)
    assert.match(limited.header('content-type') ?? '', PROBLEM)
    assert.isAbove(Number(limited.header('retry-after')), 0)
    assert.equal(limited.header('ratelimit-remaining'), '0')
    assert.isAbove(Number(limited.header('ratelimit-reset')), 0)
  })

  test('each key has its own budget', async ({ client }) => {
    env.set('RATE_LIMIT_REQUESTS', '1')
    const user = await createUser()
    const first = await serviceApiKey('first')
    const second = await serviceApiKey('second')
    const url = `/api/v1/users/${user.externalId}/sleep`
    ;(await client.get(url).header('X-API-Key', first)).assertStatus(200)
    ;(await client.get(url).header('X-API-Key', first)).assertStatus(429)
    ;(await client.get(url).header('X-API-Key', second)).assertStatus(200)
  })
})

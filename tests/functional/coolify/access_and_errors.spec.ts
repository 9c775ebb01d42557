import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { api, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const APP = SIM_UUIDS.app

test.group('Coolify API | authentication and CSRF', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('logged out, {$self} answers a JSON 401, never a redirect')
    .with(['/stats', `/applications/${APP}`, '/databases', `/ops/${APP}/status`])
    .run(async ({ client, assert }, path) => {
      const response = await client.get(api(path)).redirects(0)
      response.assertStatus(401)
      response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
      response.assertBodyContains({ status: 401 })
      assert.lengthOf(upstream.requests(), 0)
    })

  test('a mutation without the CSRF token is refused before Coolify is called', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/applications/${APP}/deploy`)).loginAs(admin)
    response.assertStatus(403)
    response.assertBodyContains({ code: 'E_BAD_CSRF_TOKEN' })
    assert.lengthOf(upstream.requests(), 0)
  })
})

test.group('Coolify API | upstream failures', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group, {}, { connectTimeoutMs: 150, timeoutMs: 300 })

  test('Coolify resetting the connection is a 502 naming coolify', async ({ client }) => {
    const admin = await createAdmin()
    upstream.sim.setFault(`GET /applications/{uuid}`, { reset: true })
    const response = await client.get(api(`/applications/${APP}`)).loginAs(admin)
    response.assertStatus(502)
    response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
    response.assertBodyContains({ status: 502, code: 'E_COOLIFY_UNREACHABLE', upstream: 'coolify' })
  })

  test('a slow Coolify is a 504', async ({ client }) => {
    const admin = await createAdmin()
    upstream.sim.setFault('GET /servers', { delayMs: 600 })
    const response = await client.get(api('/servers')).loginAs(admin)
    response.assertStatus(504)
    response.assertBodyContains({ status: 504, code: 'E_COOLIFY_TIMEOUT', upstream: 'coolify' })
  })

  test('a Coolify 5xx is a 502', async ({ client }) => {
    const admin = await createAdmin()
    upstream.sim.setFault('GET /services', { status: 500 })
    const response = await client.get(api('/services')).loginAs(admin)
    response.assertStatus(502)
    response.assertBodyContains({ code: 'E_COOLIFY_UPSTREAM_ERROR', upstream: 'coolify' })
  })

  test('Coolify 422 field errors come back as problem errors', async ({ client, assert }) => {
    const admin = await createAdmin()
    upstream.sim.setFault('POST /applications/{uuid}/envs', {
      status: 422,
      body: { message: 'Validation failed.', errors: { value: ['The value field is required.'] } },
    })
    const response = await client.post(api(`/applications/${APP}/envs`)).json({ key: 'X', value: 'y' }).loginAs(admin).withCsrfToken()
    response.assertStatus(422)
    assert.deepEqual(response.body().errors, [{ field: 'value', rule: 'coolify', message: 'The value field is required.' }])
  })

  test('a Coolify 429 keeps its Retry-After', async ({ client }) => {
    const admin = await createAdmin()
    upstream.sim.setFault('POST /deploy', { status: 429, body: { message: 'Too many requests.' }, headers: { 'retry-after': '60' } })
    const response = await client.post(api(`/applications/${APP}/deploy`)).loginAs(admin).withCsrfToken()
    response.assertStatus(429)
    response.assertHeader('retry-after', '60')
  })
})

test.group('Coolify API | configuration errors', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('a token Coolify rejects is a 502 "Coolify rejected the configured token", not a 401', async ({ client, assert }) => {
    const admin = await createAdmin()
    app.container.swap(CoolifyClient, () => new CoolifyClient({ baseUrl: upstream.sim.url, token: 'revoked-token', projectUuid: '' }))
    try {
      const response = await client.get(api(`/applications/${APP}`)).loginAs(admin)
      response.assertStatus(502)
      response.assertBodyContains({ code: 'E_COOLIFY_TOKEN_REJECTED', upstream: 'coolify' })
      assert.include(response.body().detail, 'Coolify rejected the configured token')
      assert.notInclude(response.text(), 'revoked-token')
    } finally {
      app.container.swap(CoolifyClient, () => new CoolifyClient({ baseUrl: upstream.sim.url, token: upstream.sim.token, projectUuid: '' }))
    }
  })

  test('without COOLIFY_URL and COOLIFY_TOKEN the API answers 503', async ({ client }) => {
    const admin = await createAdmin()
    app.container.swap(CoolifyClient, () => new CoolifyClient({ baseUrl: '', token: '', projectUuid: '' }))
    try {
      const response = await client.get(api('/servers')).loginAs(admin)
      response.assertStatus(503)
      response.assertBodyContains({ code: 'E_COOLIFY_NOT_CONFIGURED' })
    } finally {
      app.container.swap(CoolifyClient, () => new CoolifyClient({ baseUrl: upstream.sim.url, token: upstream.sim.token, projectUuid: '' }))
    }
  })
})

test.group('Coolify API | cache generations in Redis', () => {
  test('a mutation bumps a generation every process reads', async ({ assert }) => {
    const { RedisCacheGenerations } = await import('#services/coolify/cache_generations')
    const a = new RedisCacheGenerations()
    const b = new RedisCacheGenerations()
    const namespace = `test-${Date.now()}`
    const before = Number(await b.current(namespace))
    await a.bump(namespace)
    assert.equal(Number(await b.current(namespace)), before + 1)
  }).skip(!process.env.TEST_REDIS, 'Needs Redis (npm run test:pg)')
})

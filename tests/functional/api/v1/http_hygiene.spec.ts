import { test } from '@japa/runner'
import env from '#start/env'
import { createUser, serviceApiKey } from '#tests/helpers/fixtures'
import { freshDatabase } from '#tests/functional/sync/simulator_context'

const PROBLEM = /^application\/problem\+json/

test.group('API v1 | methods, HEAD and CORS', (group) => {
  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    return async () => {
      env.set('CORS_ORIGINS', '')
      await cleanup()
    }
  })

  test('a wrong method on an existing path is a 405 problem with Allow; an unknown path stays 404', async ({
    client,
    assert,
  }) => {
    const user = await createUser('methods')
    const cases: Array<[string, string, string]> = [
      ['PUT', `/api/v1/users/${user.externalId}/sleep`, 'GET, HEAD, OPTIONS'],
      ['POST', `/api/v1/users/${user.externalId}/sleep/2026-03-01`, 'GET, HEAD, OPTIONS'],
      ['GET', `/api/v1/users/${user.externalId}/sync/trigger`, 'POST, OPTIONS'],
      ['PATCH', `/api/v1/users/${user.externalId}`, 'GET, HEAD, DELETE, OPTIONS'],
      ['DELETE', '/api/v1/users', 'GET, HEAD, OPTIONS'],
      // GET /baselines/{metric_name} matches this path too (and answers 404 for the name).
      ['DELETE', `/api/v1/users/${user.externalId}/baselines/calculate`, 'GET, HEAD, POST, OPTIONS'],
    ]
    for (const [method, path, allow] of cases) {
      const response = await client.request(path, method)
      assert.equal(response.status(), 405, `${method} ${path}`)
      assert.equal(response.header('allow'), allow, `${method} ${path}`)
      assert.match(response.header('content-type') ?? '', PROBLEM)
      assert.equal(response.body().status, 405)
      assert.equal(response.body().code, 'E_METHOD_NOT_ALLOWED')
      assert.include(response.body().detail, method)
    }
    const unknown = await client.request('/api/v1/nothing/here', 'PUT')
    unknown.assertStatus(404)
    assert.notExists(unknown.header('allow'))
    // A plain OPTIONS (no preflight) answers what the path allows.
    const options = await client.request(`/api/v1/users/${user.externalId}/sleep`, 'OPTIONS')
    options.assertStatus(204)
    assert.equal(options.header('allow'), 'GET, HEAD, OPTIONS')
  })

  test('HEAD answers where GET does: same status and headers, no body', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const user = await createUser('header')
    const paths = [
      `/api/v1/users/${user.externalId}/sleep`,
      `/api/v1/users/${user.externalId}/export/sleep.csv`,
      '/api/v1/users',
      `/api/v1/users/${user.externalId}/sync/runs`,
    ]
    for (const path of paths) {
      const get = await client.get(path).header('X-API-Key', key)
      const head = await client.request(path, 'HEAD').header('X-API-Key', key)
      assert.equal(head.status(), 200, path)
      assert.equal(get.status(), 200, path)
      assert.isNotOk(head.text(), path)
      assert.equal(head.header('content-type'), get.header('content-type'), path)
      assert.exists(head.header('ratelimit-limit'), path)
    }
    const sleep = await client.request(`/api/v1/users/${user.externalId}/sleep`, 'HEAD').header('X-API-Key', key)
    assert.exists(sleep.header('etag'))
    ;(await client.request('/api/v1/users/nobody/sleep', 'HEAD').header('X-API-Key', key)).assertStatus(404)
    ;(await client.request('/api/v1/users', 'HEAD')).assertStatus(401)
  })

  test('CORS_ORIGINS: a listed origin gets a full preflight and exposed headers; others and the default get none', async ({
    client,
    assert,
  }) => {
    const key = await serviceApiKey()
    await createUser('browser')
    const preflight = (origin: string, path = '/api/v1/users/browser/sleep', method = 'GET') =>
      client
        .request(path, 'OPTIONS')
        .header('Origin', origin)
        .header('Access-Control-Request-Method', method)
        .header('Access-Control-Request-Headers', 'x-api-key')

    // Default: no origin is allowed on the API.
    const closed = await preflight('https://dash.example.com')
    assert.notExists(closed.header('access-control-allow-origin'))

    env.set('CORS_ORIGINS', 'https://dash.example.com, https://other.example/')
    const allowed = await preflight('https://dash.example.com')
    allowed.assertStatus(204)
    assert.equal(allowed.header('access-control-allow-origin'), 'https://dash.example.com')
    assert.include(allowed.header('access-control-allow-methods'), 'GET')
    assert.include(allowed.header('access-control-allow-headers')!.toLowerCase(), 'x-api-key')
    assert.notExists(allowed.header('access-control-allow-credentials'))
    const trigger = await preflight('https://other.example', '/api/v1/users/browser/sync/trigger', 'POST')
    assert.equal(trigger.header('access-control-allow-origin'), 'https://other.example')

    const refused = await preflight('https://evil.example')
    assert.notExists(refused.header('access-control-allow-origin'))
    // The admin UI and the ops API stay same-origin whatever CORS_ORIGINS says.
    assert.notExists((await preflight('https://dash.example.com', '/admin/login')).header('access-control-allow-origin'))
    // The OAuth endpoints keep their own rule: any origin.
    const oauth = await preflight('https://anything.example', '/.well-known/oauth-authorization-server')
    assert.equal(oauth.header('access-control-allow-origin'), '*')

    const actual = await client.get('/api/v1/users/browser/sleep').header('Origin', 'https://dash.example.com').header('X-API-Key', key)
    actual.assertStatus(200)
    assert.equal(actual.header('access-control-allow-origin'), 'https://dash.example.com')
    const exposed = actual.header('access-control-expose-headers')!.toLowerCase().split(/\s*,\s*/)
    assert.includeMembers(exposed, ['etag', 'link', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'])
    const foreign = await client.get('/api/v1/users/browser/sleep').header('Origin', 'https://evil.example').header('X-API-Key', key)
    assert.notExists(foreign.header('access-control-allow-origin'))
  })
})

import { test } from '@japa/runner'
import { OPS_SCOPES } from '#services/ops/ops_tokens'
import { bearer, refreshQueueManager, TOKENS, useTestTokens } from '#tests/functional/ops/helpers'
import { truncateDatabase } from '#tests/helpers/database'

/** Every operations route with the scope the spec assigns to it. */
const ROUTES = [
  { method: 'get', path: '/ops/health', scope: 'health:read' },
  { method: 'get', path: '/ops/stats', scope: 'stats:read' },
  { method: 'get', path: '/ops/logs', scope: 'logs:read' },
  { method: 'get', path: '/ops/logs/missing.log', scope: 'logs:read', allowedStatus: 404 },
  { method: 'get', path: '/ops/queue', scope: 'queue:read' },
  { method: 'get', path: '/ops/queue/failed', scope: 'queue:read' },
  { method: 'post', path: '/ops/queue/retry/999999', scope: 'queue:retry', allowedStatus: 404 },
  { method: 'post', path: '/ops/queue/retry-all', scope: 'queue:retry' },
  { method: 'get', path: '/ops/console', scope: 'console:list' },
  { method: 'post', path: '/ops/console', scope: 'console:execute', body: { command: 'list' } },
] as const

type Route = (typeof ROUTES)[number]

function call(client: any, route: Route, authorization?: string) {
  let request = client[route.method](route.path)
  if (authorization !== undefined) request = request.header('Authorization', authorization)
  if ('body' in route) request = request.json(route.body)
  return request
}

test.group('Ops | scopes', (group) => {
  group.setup(async () => {
    await refreshQueueManager()
    return useTestTokens()
  })
  group.each.setup(() => truncateDatabase())

  for (const token of [...OPS_SCOPES, '*', 'none']) {
    test(`a token with scope "${token}" reaches exactly its endpoints`, async ({ client, assert }) => {
      for (const route of ROUTES) {
        const response = await call(client, route, bearer(token))
        const allowed = token === '*' || token === route.scope
        const expected = allowed ? ('allowedStatus' in route ? route.allowedStatus : 200) : 403
        assert.equal(response.status(), expected, `${route.method.toUpperCase()} ${route.path} with ${token}`)
        if (!allowed) {
          assert.include(response.header('content-type'), 'application/problem+json')
          assert.equal(response.body().code, 'E_OPS_FORBIDDEN')
          assert.include(response.body().detail, route.scope)
        }
      }
    }).timeout(120_000)
  }
})

test.group('Ops | authentication', (group) => {
  group.setup(() => useTestTokens())

  test('a request without Authorization is a 401 problem on every route', async ({ client, assert }) => {
    for (const route of ROUTES) {
      const response = await call(client, route)
      assert.equal(response.status(), 401, `${route.method.toUpperCase()} ${route.path}`)
      assert.include(response.header('content-type'), 'application/problem+json')
      assert.include(response.header('www-authenticate'), 'Bearer')
      assert.containsSubset(response.body(), { status: 401, code: 'E_OPS_UNAUTHORIZED', title: 'Unauthorized' })
    }
  })

  test('{$self} is a 401 problem')
    .with(['Basic scheme', 'unknown token', 'empty bearer', 'token prefix', 'token with suffix', 'token in upper case'])
    .run(async ({ client, assert }, kind) => {
      const valid = TOKENS['*']
      const authorization = {
        'Basic scheme': `Basic ${Buffer.from(`x:${valid}`).toString('base64')}`,
        'unknown token': 'Bearer not-a-configured-token',
        'empty bearer': 'Bearer ',
        'token prefix': `Bearer ${valid.slice(0, -1)}`,
        'token with suffix': `Bearer ${valid}x`,
        'token in upper case': `Bearer ${valid.toUpperCase()}`,
      }[kind]
      for (const route of [ROUTES[0], ROUTES[9]]) {
        const response = await call(client, route, authorization)
        assert.equal(response.status(), 401, `${route.method.toUpperCase()} ${route.path}`)
        assert.containsSubset(response.body(), { status: 401, code: 'E_OPS_UNAUTHORIZED' })
        assert.notInclude(JSON.stringify(response.body()), valid)
      }
    })

  test('OPS_TOKEN alone grants every scope', async ({ client }) => {
    const restore = useTestTokens()
    const { default: env } = await import('#start/env')
    env.set('OPS_TOKENS', '')
    env.set('OPS_TOKEN', 'single-ops-token-abcdefghijklmnopqrstu')
    try {
      const ok = await client.get('/ops/console').header('Authorization', 'Bearer single-ops-token-abcdefghijklmnopqrstu')
      ok.assertStatus(200)
      const old = await client.get('/ops/console').header('Authorization', bearer('console:list'))
      old.assertStatus(401)
    } finally {
      restore()
      useTestTokens()
    }
  })

  test('authorised responses carry the rate-limit headers', async ({ client, assert }) => {
    const response = await client.get('/ops/console').header('Authorization', bearer('*'))
    response.assertStatus(200)
    assert.equal(response.header('ratelimit-limit'), '1000')
    assert.isAtLeast(Number(response.header('ratelimit-remaining')), 0)
    assert.isAbove(Number(response.header('ratelimit-reset')), 0)
  })

  test('an unknown operations path is a 404 problem', async ({ client, assert }) => {
    const response = await client.get('/ops/nope').header('Authorization', bearer('*'))
    response.assertStatus(404)
    assert.include(response.header('content-type'), 'application/problem+json')
  })
})

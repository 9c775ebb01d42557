import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createServer, type Server } from 'node:net'
import env from '#start/env'
import type { SimulatorOptions } from '#simulators/coolify/simulator'
import {
  allowPrivateOpsTargets,
  api,
  createAdmin,
  pointOpsTarget,
  SIM_UUIDS,
  startFakeOpsApi,
  useSimulator,
  type FakeOpsAnswer,
  type FakeOpsApi,
} from '#tests/functional/coolify/helpers'

const APP = SIM_UUIDS.app
const OPS_TOKEN = 'ops-token-of-the-deployed-app-0123456789'
const DASHBOARD_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"
const HOSTILE_HTML = '<!doctype html><script>fetch("/coolify/api/applications/x/envs?reveal=true")</script>'

/** Starts a fake ops API before the simulator, which seeds the application with its URL. */
function useFakeOpsApi(group: Parameters<typeof useSimulator>[0]) {
  const handle = { fake: null as unknown as FakeOpsApi }
  const options: SimulatorOptions = { opsToken: OPS_TOKEN, opsPrefix: '/ops' }
  group.setup(async () => {
    handle.fake = await startFakeOpsApi()
    options.opsAppFqdn = handle.fake.url
    return () => handle.fake.close()
  })
  const upstream = useSimulator(group, options)
  group.each.setup(() => {
    pointOpsTarget(upstream.sim, handle.fake.url, '/ops')
    handle.fake.requests.length = 0
    handle.fake.answer = () => ({ body: '{"status":"healthy","checks":{}}' })
  })
  return {
    upstream,
    get fake() {
      return handle.fake
    },
  }
}

/** COOLIFY_OPS_ALLOW_PRIVATE for one test. */
function allowPrivate(value: boolean, cleanup: (fn: () => void) => void) {
  const previous = env.get('COOLIFY_OPS_ALLOW_PRIVATE')
  env.set('COOLIFY_OPS_ALLOW_PRIVATE', value)
  cleanup(() => env.set('COOLIFY_OPS_ALLOW_PRIVATE', previous ?? false))
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

test.group('Coolify API | ops proxy answers are JSON only', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  allowPrivateOpsTargets(group)
  const ops = useFakeOpsApi(group)

  test('a hostile upstream answering HTML gets a 502 problem, never its markup', async ({ client, assert }) => {
    ops.fake.answer = () => ({ headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: HOSTILE_HTML })
    const admin = await createAdmin()
    const response = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    response.assertStatus(502)
    response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
    response.assertHeader('content-security-policy', DASHBOARD_CSP)
    response.assertHeader('x-content-type-options', 'nosniff')
    assert.containsSubset(response.body(), { status: 502, code: 'E_COOLIFY_OPS_INVALID_RESPONSE', upstream: 'ops', upstream_status: 200 })
    assert.notInclude(response.text(), '<script')
    assert.notInclude(response.text(), 'reveal=true')
  })

  test('a non-JSON answer ({name}) is a 502 carrying the upstream status')
    .with<Array<FakeOpsAnswer & { name: string; status: number }>>([
      { name: 'text/plain', status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' },
      { name: 'invalid JSON', status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"status": healthy' },
      { name: 'an HTML error page', status: 500, headers: { 'Content-Type': 'text/html' }, body: '<h1>Server Error</h1>' },
      { name: 'no content type', status: 200, headers: {}, body: '{"status":"healthy"}' },
      { name: 'an empty JSON body', status: 204, headers: { 'Content-Type': 'application/json' }, body: '' },
      { name: 'a redirect', status: 302, headers: { Location: 'https://evil.example/' }, body: '' },
    ])
    .run(async ({ client, assert }, answer) => {
      ops.fake.answer = () => answer
      const admin = await createAdmin()
      const response = await client.get(api(`/ops/${APP}/stats`)).loginAs(admin)
      response.assertStatus(502)
      response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
      assert.containsSubset(response.body(), { code: 'E_COOLIFY_OPS_INVALID_RESPONSE', upstream_status: answer.status })
      assert.notProperty(response.headers(), 'location')
    })

  test('JSON is re-serialised with the upstream status and our own content type', async ({ client, assert }) => {
    ops.fake.answer = (url) =>
      url.startsWith('/ops/logs')
        ? { status: 404, headers: { 'Content-Type': 'application/problem+json' }, body: '{"status":404,"title":"Not Found"}' }
        : { status: 503, headers: { 'Content-Type': 'application/json; charset=iso-8859-1; x="<b>"' }, body: ' {"status" : "unhealthy"} ' }
    const admin = await createAdmin()
    const health = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    health.assertStatus(503)
    health.assertHeader('content-type', 'application/json; charset=utf-8')
    assert.equal(health.text(), '{"status":"unhealthy"}')
    const missing = await client.get(api(`/ops/${APP}/logs/missing.log`)).loginAs(admin)
    missing.assertStatus(404)
    missing.assertHeader('content-type', 'application/problem+json; charset=utf-8')
    missing.assertHeader('content-security-policy', DASHBOARD_CSP)
    assert.deepEqual(missing.body(), { status: 404, title: 'Not Found' })
  })

  test('a 429 of the ops API keeps its own Retry-After and RateLimit-* headers', async ({ client, assert }) => {
    ops.fake.answer = () => ({
      status: 429,
      headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '840', 'RateLimit-Limit': '60', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '840', 'X-Other': 'dropped' },
      body: '{"status":429,"title":"Too Many Requests"}',
    })
    const admin = await createAdmin()
    const limited = await client.get(api(`/ops/${APP}/stats`)).loginAs(admin)
    limited.assertStatus(429)
    limited.assertHeader('retry-after', '840')
    limited.assertHeader('ratelimit-reset', '840')
    limited.assertHeader('ratelimit-remaining', '0')
    assert.isUndefined(limited.header('x-other'))
    assert.deepEqual(limited.body(), { status: 429, title: 'Too Many Requests' })
  })

  test('status reports an HTML health answer as an unexpected response', async ({ client, assert }) => {
    ops.fake.answer = () => ({ headers: { 'Content-Type': 'text/html' }, body: HOSTILE_HTML })
    const admin = await createAdmin()
    const response = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
    response.assertStatus(200)
    assert.containsSubset(response.body(), { configured: true, reachable: true, healthy: null, reason: 'unexpected_response' })
    assert.notInclude(response.text(), '<script')
  })
})

test.group('Coolify API | security headers of every dashboard API answer', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('{name} carries the sandbox CSP and nosniff')
    .with([
      { name: 'a logged-out 401', method: 'get', path: '/stats', login: false, status: 401 },
      { name: 'an unknown route 404', method: 'get', path: '/no-such-route', login: true, status: 404 },
      { name: 'a 200', method: 'get', path: '/stats', login: true, status: 200 },
      { name: 'a 422', method: 'get', path: '/applications/not!a!uuid', login: true, status: 422 },
      { name: 'a malformed JSON body', method: 'post', path: `/applications/${APP}/deploy`, login: false, status: 400 },
    ] as const)
    .run(async ({ client }, row) => {
      let request = client[row.method](api(row.path))
      if (row.method === 'post') request = request.unsafeJson('{"force":')
      if (row.login) request = request.loginAs(await createAdmin())
      const response = await request
      response.assertStatus(row.status)
      response.assertHeader('content-security-policy', DASHBOARD_CSP)
      response.assertHeader('x-content-type-options', 'nosniff')
    })

  test('the dashboard pages keep their own CSP', async ({ client, assert }) => {
    const response = await client.get('/coolify').loginAs(await createAdmin()).redirects(0)
    assert.notInclude(String(response.header('content-security-policy') ?? ''), 'sandbox')
  })
})

test.group('Coolify API | ops proxy targets', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const ops = useFakeOpsApi(group)

  test('OPS_PREFIX {$self} is refused and nothing is called with the token')
    .with(['/ops?', '/ops?x=', '/ops#', '/ops/../schema', '/ops/%2e%2e/schema', '/ops.json', '/ops%3F'])
    .run(async ({ client, assert, cleanup }, prefix) => {
      allowPrivate(true, cleanup)
      pointOpsTarget(ops.upstream.sim, ops.fake.url, prefix)
      const admin = await createAdmin()
      const status = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
      assert.containsSubset(status.body(), { configured: false, reason: 'invalid_ops_prefix' })
      const health = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
      health.assertStatus(409)
      assert.containsSubset(health.body(), { code: 'E_COOLIFY_OPS_NOT_CONFIGURED', reason: 'invalid_ops_prefix', upstream: 'ops' })
      assert.deepEqual(ops.fake.requests, [])
    })

  test('plain http to loopback is refused unless COOLIFY_OPS_ALLOW_PRIVATE', async ({ client, assert, cleanup }) => {
    allowPrivate(false, cleanup)
    const admin = await createAdmin()
    const status = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
    assert.containsSubset(status.body(), { configured: false, reachable: false, reason: 'target_not_allowed' })
    assert.include(status.body().message, 'COOLIFY_OPS_ALLOW_PRIVATE')
    const health = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    health.assertStatus(409)
    assert.containsSubset(health.body(), { code: 'E_COOLIFY_OPS_NOT_CONFIGURED', reason: 'target_not_allowed' })
    const run = await client.post(api(`/ops/${APP}/console`)).json({ command: 'list' }).loginAs(admin).withCsrfToken()
    run.assertStatus(409)
    assert.deepEqual(ops.fake.requests, [])
  })

  test('https to a loopback, private or link-local host ({$self}) is refused without a connection')
    .with(['127.0.0.1:9', 'localhost:9', '[::1]:9', '[::ffff:127.0.0.1]:9', '10.20.30.40', '192.168.1.10', '172.16.0.1', '169.254.169.254', '100.64.0.1'])
    .run(async ({ client, assert, cleanup }, host) => {
      allowPrivate(false, cleanup)
      pointOpsTarget(ops.upstream.sim, `https://${host}`, '/ops')
      const admin = await createAdmin()
      const status = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
      assert.containsSubset(status.body(), { configured: false, reason: 'target_not_allowed' })
    })

  test('with COOLIFY_OPS_ALLOW_PRIVATE the loopback target is called, with the token', async ({ client, assert, cleanup }) => {
    allowPrivate(true, cleanup)
    const admin = await createAdmin()
    const health = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    health.assertStatus(200)
    assert.deepEqual(health.body(), { status: 'healthy', checks: {} })
    assert.deepEqual(ops.fake.requests, [{ method: 'GET', url: '/ops/health', authorization: `Bearer ${OPS_TOKEN}` }])
  })

  test('a closed port and an open port that is not an ops API get the same generic 502', async ({ client, assert, cleanup }) => {
    allowPrivate(true, cleanup)
    const admin = await createAdmin()
    const closed = createServer()
    const closedPort = await listen(closed)
    await new Promise((resolve) => closed.close(resolve))
    const open = createServer((socket) => socket.destroy())
    const openPort = await listen(open)
    cleanup(() => new Promise<void>((resolve) => open.close(() => resolve())))

    const details: string[] = []
    for (const port of [closedPort, openPort]) {
      pointOpsTarget(ops.upstream.sim, `http://127.0.0.1:${port}`, '/ops')
      await client.patch(api(`/applications/${APP}`)).json({ name: 'hrvault' }).loginAs(admin).withCsrfToken()
      const response = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
      response.assertStatus(502)
      assert.containsSubset(response.body(), { code: 'E_COOLIFY_OPS_UNREACHABLE', upstream: 'ops' })
      details.push(response.body().detail)
    }
    assert.equal(details[0], details[1])
    assert.notMatch(details[0], /ECONN|EPIPE|socket|refused|reset/i)
  })
})

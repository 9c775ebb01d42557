import { test } from '@japa/runner'
import { createServer } from 'node:net'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { MemoryCacheGenerations } from '#services/coolify/cache_generations'
import { start, SIM_UUIDS, type CoolifySimulator } from '#simulators/coolify/simulator'
import CoolifyRequestException from '#exceptions/coolify_request_exception'
import CoolifyTimeoutException from '#exceptions/coolify_timeout_exception'
import CoolifyTokenRejectedException from '#exceptions/coolify_token_rejected_exception'
import CoolifyUnreachableException from '#exceptions/coolify_unreachable_exception'
import CoolifyUpstreamErrorException from '#exceptions/coolify_upstream_error_exception'
import CoolifyNotConfiguredException from '#exceptions/coolify_not_configured_exception'

/** The error a call rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

test.group('Coolify client | requests', (group) => {
  let sim: CoolifySimulator
  let client: CoolifyClient
  group.each.setup(async () => {
    sim = await start()
    client = new CoolifyClient({ baseUrl: sim.url, token: sim.token, cacheTtlMs: 60_000 })
    return () => sim.close()
  })

  test('sends the bearer token to /api/v1 and parses JSON', async ({ assert }) => {
    const app = await client.get<{ uuid: string; fqdn: string }>(`/applications/${SIM_UUIDS.app}`)
    assert.equal(app.uuid, SIM_UUIDS.app)
    assert.deepEqual(sim.requests.at(-1), {
      method: 'GET',
      path: `/applications/${SIM_UUIDS.app}`,
      query: {},
      body: null,
      auth: `Bearer ${sim.token}`,
    })
  })

  test('appends /api/v1 once, whatever form COOLIFY_URL takes', async ({ assert }) => {
    for (const baseUrl of [sim.url, `${sim.url}/`, `${sim.url}/api/v1`, `${sim.url}/api/v1/`]) {
      const c = new CoolifyClient({ baseUrl, token: sim.token, cacheTtlMs: 0 })
      assert.equal(await c.get('/version'), '4.3.10')
    }
  })

  test('returns plain-text answers as text', async ({ assert }) => {
    assert.equal(await client.get('/version'), '4.3.10')
  })

  test('sends query parameters and a JSON body on mutations', async ({ assert }) => {
    await client.post('/deploy', { query: { uuid: SIM_UUIDS.app, force: true } })
    await client.patch(`/applications/${SIM_UUIDS.app}/envs`, { body: { key: 'OPS_PREFIX', value: '/ops' } })
    const [deploy, patch] = sim.requests.slice(-2)
    assert.deepEqual([deploy.method, deploy.path, deploy.query], ['POST', '/deploy', { uuid: SIM_UUIDS.app, force: 'true' }])
    assert.deepEqual([patch.method, patch.body], ['PATCH', { key: 'OPS_PREFIX', value: '/ops' }])
  })

  test('a second GET within the TTL is served from the cache', async ({ assert }) => {
    await client.get('/servers')
    await client.get('/servers')
    assert.lengthOf(sim.requestsTo('GET', '/servers'), 1)
  })

  test('GETs with cache: false always reach Coolify', async ({ assert }) => {
    await client.get('/servers', { cache: false })
    await client.get('/servers', { cache: false })
    assert.lengthOf(sim.requestsTo('GET', '/servers'), 2)
  })

  test('any mutation empties the cache of the same token and URL', async ({ assert }) => {
    const before = await client.get<Array<{ key: string; value: string }>>(`/applications/${SIM_UUIDS.app}/envs`)
    // Another client instance with the same token + URL shares the cache.
    const other = new CoolifyClient({ baseUrl: sim.url, token: sim.token, cacheTtlMs: 60_000 })
    await other.patch(`/applications/${SIM_UUIDS.app}/envs`, { body: { key: 'OPS_PREFIX', value: '/changed' } })
    const after = await client.get<Array<{ key: string; value: string }>>(`/applications/${SIM_UUIDS.app}/envs`)
    assert.equal(before.find((e) => e.key === 'OPS_PREFIX')!.value, '/ops')
    assert.equal(after.find((e) => e.key === 'OPS_PREFIX')!.value, '/changed')
    assert.lengthOf(sim.requestsTo('GET', `/applications/${SIM_UUIDS.app}/envs`), 2)
  })

  test('a mutation in another process (a bumped generation) makes cached reads unreachable', async ({ assert }) => {
    const generations = new MemoryCacheGenerations()
    const here = new CoolifyClient({ baseUrl: sim.url, token: sim.token, cacheTtlMs: 60_000, generations })
    await here.get('/servers')
    await here.get('/servers')
    assert.lengthOf(sim.requestsTo('GET', '/servers'), 1)
    // What RedisCacheGenerations shows this process when another web process mutates something.
    await generations.bump(here.cacheNamespace)
    await here.get('/servers')
    assert.lengthOf(sim.requestsTo('GET', '/servers'), 2)
  })

  test('the cache is keyed by token: another token never sees cached data', async ({ assert }) => {
    await client.get('/servers')
    const intruder = new CoolifyClient({ baseUrl: sim.url, token: 'wrong', cacheTtlMs: 60_000 })
    await assert.rejects(() => intruder.get('/servers'), CoolifyTokenRejectedException)
  })

  test('cached values cannot be changed by the caller', async ({ assert }) => {
    const first = await client.get<Array<{ name: string }>>('/servers')
    first[0].name = 'tampered'
    const second = await client.get<Array<{ name: string }>>('/servers')
    assert.equal(second[0].name, 'localhost')
  })

  test('POST /deploy is never cached: two deploys queue two deployments', async ({ assert }) => {
    const a = await client.post<{ deployments: Array<{ deployment_uuid: string }> }>('/deploy', { query: { uuid: SIM_UUIDS.app } })
    const b = await client.post<{ deployments: Array<{ deployment_uuid: string }> }>('/deploy', { query: { uuid: SIM_UUIDS.app } })
    assert.notEqual(a.deployments[0].deployment_uuid, b.deployments[0].deployment_uuid)
    assert.lengthOf(sim.requestsTo('POST', '/deploy'), 2)
  })
})

test.group('Coolify client | errors', (group) => {
  let sim: CoolifySimulator
  group.each.setup(async () => {
    sim = await start()
    return () => sim.close()
  })

  const clientFor = (s: CoolifySimulator, extra = {}) =>
    new CoolifyClient({ baseUrl: s.url, token: s.token, cacheTtlMs: 0, ...extra })

  test('an upstream 401 is a 502 naming the rejected token', async ({ assert }) => {
    const client = new CoolifyClient({ baseUrl: sim.url, token: 'not-the-token', cacheTtlMs: 0 })
    const error = await failure(client.get('/servers'))
    assert.instanceOf(error, CoolifyTokenRejectedException)
    assert.equal(error.status, 502)
    assert.include(error.message, 'Coolify rejected the configured token')
    assert.equal(error.problemExtensions.upstream, 'coolify')
  })

  test('a 404 keeps its status and Coolify message', async ({ assert }) => {
    const error = await failure(clientFor(sim).get('/applications/nope'))
    assert.instanceOf(error, CoolifyRequestException)
    assert.equal(error.status, 404)
    assert.equal(error.message, 'Coolify: Application not found.')
  })

  test('a 400 "already running" keeps status 400 and the message', async ({ assert }) => {
    const error = await failure(clientFor(sim).post(`/databases/${SIM_UUIDS.postgres}/start`))
    assert.equal(error.status, 400)
    assert.equal(error.message, 'Coolify: Database is already running.')
  })

  test('a 422 carries Coolify field errors as problem errors', async ({ assert }) => {
    const error = await failure(clientFor(sim)
      .post(`/applications/${SIM_UUIDS.app}/envs`, { body: { key: 'X', value: 'y', is_build_time: true } })
      )
    assert.equal(error.status, 422)
    assert.equal(error.message, 'Coolify: Validation failed.')
    assert.deepEqual(error.problemExtensions.errors, [
      { field: 'is_build_time', rule: 'coolify', message: 'This field is not allowed.' },
    ])
  })

  test('GET /deploy on Coolify v4.2+ answers 405, passed through', async ({ assert }) => {
    const error = await failure(clientFor(sim).get('/deploy', { query: { uuid: SIM_UUIDS.app } }))
    assert.equal(error.status, 405)
    assert.equal(error.message, 'Coolify: This endpoint has changed to a POST request.')
  })

  test('a 429 keeps Retry-After', async ({ assert }) => {
    sim.setFault('POST /deploy', { status: 429, body: { message: 'Deployment queue is full.' }, headers: { 'retry-after': '60' } })
    const error = await failure(clientFor(sim).post('/deploy', { query: { uuid: SIM_UUIDS.app } }))
    assert.equal(error.status, 429)
    assert.equal(error.message, 'Coolify: Deployment queue is full.')
    assert.deepEqual(error.headers, { 'Retry-After': '60' })
  })

  test('a connection refused is a 502', async ({ assert }) => {
    const port = await closedPort()
    const client = new CoolifyClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't', retries: 0, cacheTtlMs: 0 })
    const error = await failure(client.get('/servers'))
    assert.instanceOf(error, CoolifyUnreachableException)
    assert.equal(error.status, 502)
    assert.include(error.message, 'coolify')
  })

  test('a connection reset is a 502 after the GET retries', async ({ assert }) => {
    sim.setFault('GET /servers', { reset: true })
    const error = await failure(clientFor(sim, { retries: 2 }).get('/servers'))
    assert.instanceOf(error, CoolifyUnreachableException)
    assert.lengthOf(sim.requestsTo('GET', '/servers'), 3)
  })

  test('a slow answer is a 504', async ({ assert }) => {
    sim.setFault('GET /servers', { delayMs: 400 })
    const error = await failure(clientFor(sim, { connectTimeoutMs: 100, timeoutMs: 250, retries: 0 }).get('/servers'))
    assert.instanceOf(error, CoolifyTimeoutException)
    assert.equal(error.status, 504)
  })

  test('an upstream 5xx is a 502', async ({ assert }) => {
    sim.setFault('GET /servers', { status: 500 })
    const error = await failure(clientFor(sim, { retries: 0 }).get('/servers'))
    assert.instanceOf(error, CoolifyUpstreamErrorException)
    assert.equal(error.status, 502)
  })

  test('GETs are retried after a transient failure', async ({ assert }) => {
    sim.setFault('GET /servers', { status: 503, times: 1 })
    const servers = await clientFor(sim, { retries: 2 }).get<unknown[]>('/servers')
    assert.lengthOf(servers, 2)
    assert.lengthOf(sim.requestsTo('GET', '/servers'), 2)
  })

  test('mutations are never retried', async ({ assert }) => {
    sim.setFault('POST /deploy', { reset: true, times: 1 })
    const error = await failure(clientFor(sim, { retries: 2 }).post('/deploy', { query: { uuid: SIM_UUIDS.app } }))
    assert.instanceOf(error, CoolifyUnreachableException)
    assert.lengthOf(sim.requestsTo('POST', '/deploy'), 1)
  })

  test('without COOLIFY_URL or COOLIFY_TOKEN every call is a 503', async ({ assert }) => {
    const client = new CoolifyClient({ baseUrl: '', token: '' })
    assert.isFalse(client.configured)
    await assert.rejects(() => client.get('/servers'), CoolifyNotConfiguredException)
  })
})

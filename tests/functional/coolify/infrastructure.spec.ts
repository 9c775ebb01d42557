import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { MASK } from '#services/coolify/masking'
import { api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

test.group('Coolify API | servers', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('GET /servers lists servers with Sentinel tokens masked', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api('/servers')).loginAs(admin)
    response.assertStatus(200)
    assert.deepEqual(response.body().map((s: { name: string }) => s.name), ['localhost', 'edge-1'])
    assert.equal(response.body()[0].settings.sentinel_token, MASK)
    assert.deepInclude(upstream.last(), { method: 'GET', path: '/servers' })
  })

  test('GET /servers/:uuid returns one server', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/servers/${SIM_UUIDS.server}`)).loginAs(admin)
    response.assertStatus(200)
    response.assertBodyContains({ uuid: SIM_UUIDS.server, settings: { is_reachable: true } })
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/servers/${SIM_UUIDS.server}` })
  })

  test('GET /servers/:uuid/resources lists what runs on it', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/servers/${SIM_UUIDS.server}/resources`)).loginAs(admin)
    response.assertStatus(200)
    assert.includeMembers(response.body().map((r: { uuid: string }) => r.uuid), [SIM_UUIDS.app, SIM_UUIDS.postgres, SIM_UUIDS.service])
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/servers/${SIM_UUIDS.server}/resources` })
  })

  test('GET /servers/:uuid/domains groups domains by IP and forwards ?uuid', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/servers/${SIM_UUIDS.server}/domains`)).qs({ uuid: SIM_UUIDS.appNoOps }).loginAs(admin)
    response.assertStatus(200)
    assert.deepEqual(response.body(), [{ ip: 'host.docker.internal', domains: ['www.example.com', 'example.com'] }])
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/servers/${SIM_UUIDS.server}/domains`, query: { uuid: SIM_UUIDS.appNoOps } })
  })

  test('POST /servers/:uuid/validate sends POST (v4.2+) and is audited', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/servers/${SIM_UUIDS.server}/validate`)).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({ message: 'Validation started.' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/servers/${SIM_UUIDS.server}/validate` })
    assert.lengthOf(await auditRows('coolify.server.validate'), 1)
  })
})

test.group('Coolify API | services', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('GET /services and /services/:uuid', async ({ client, assert }) => {
    const admin = await createAdmin()
    const list = await client.get(api('/services')).loginAs(admin)
    list.assertStatus(200)
    assert.deepEqual(list.body().map((s: { name: string }) => s.name), ['plausible', 'uptime-kuma'])
    assert.deepInclude(upstream.last(), { method: 'GET', path: '/services' })
    const one = await client.get(api(`/services/${SIM_UUIDS.service}`)).loginAs(admin)
    one.assertStatus(200)
    one.assertBodyContains({ uuid: SIM_UUIDS.service, service_type: 'plausible' })
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/services/${SIM_UUIDS.service}` })
  })

  test('POST start of a running service is Coolify 400 "already running"', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/services/${SIM_UUIDS.service}/start`)).loginAs(admin).withCsrfToken()
    response.assertStatus(400)
    response.assertBodyContains({ detail: 'Coolify: Service is already running.' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/services/${SIM_UUIDS.service}/start` })
  })

  test('POST stop forwards docker_cleanup; POST restart forwards latest', async ({ client, assert }) => {
    const admin = await createAdmin()
    const stop = await client.post(api(`/services/${SIM_UUIDS.service}/stop`)).json({ docker_cleanup: false }).loginAs(admin).withCsrfToken()
    stop.assertStatus(200)
    stop.assertBodyContains({ message: 'Service stopping request queued.' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/services/${SIM_UUIDS.service}/stop`, query: { docker_cleanup: 'false' } })
    const restart = await client.post(api(`/services/${SIM_UUIDS.service}/restart`)).json({ latest: true }).loginAs(admin).withCsrfToken()
    restart.assertStatus(200)
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/services/${SIM_UUIDS.service}/restart`, query: { latest: 'true' } })
    const start = await client.post(api(`/services/${SIM_UUIDS.serviceOther}/start`)).loginAs(admin).withCsrfToken()
    start.assertStatus(200)
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/services/${SIM_UUIDS.serviceOther}/start` })
    assert.deepEqual((await auditRows('coolify.service.stop')).map((r) => r.outcome), ['success'])
  })
})

test.group('Coolify API | projects', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('GET /projects, /projects/:uuid and /projects/:uuid/environments', async ({ client, assert }) => {
    const admin = await createAdmin()
    const list = await client.get(api('/projects')).loginAs(admin)
    list.assertStatus(200)
    assert.deepEqual(list.body().map((p: { uuid: string }) => p.uuid), [SIM_UUIDS.project, SIM_UUIDS.otherProject])
    assert.deepInclude(upstream.last(), { method: 'GET', path: '/projects' })

    const one = await client.get(api(`/projects/${SIM_UUIDS.project}`)).loginAs(admin)
    one.assertStatus(200)
    assert.deepEqual(one.body().environments.map((e: { name: string }) => e.name), ['production', 'staging'])
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/projects/${SIM_UUIDS.project}` })

    const envs = await client.get(api(`/projects/${SIM_UUIDS.project}/environments`)).loginAs(admin)
    envs.assertStatus(200)
    assert.lengthOf(envs.body(), 2)
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/projects/${SIM_UUIDS.project}/environments` })
  })
})

test.group('Coolify API | stats', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('aggregates counts by status and recent deployments without any secret', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api('/stats')).loginAs(admin)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(body.coolify, { configured: true, reachable: true, authenticated: true, version: '4.3.10', error: null })
    assert.deepEqual(body.applications, { total: 3, by_status: { running: 2, exited: 1 } })
    assert.deepEqual(body.databases, { total: 3, by_status: { running: 2, exited: 1 } })
    assert.deepEqual(body.services, { total: 2, by_status: { running: 1, exited: 1 } })
    assert.deepEqual(body.servers, { total: 2, by_status: { reachable: 1, unreachable: 1 } })
    assert.equal(body.recent_deployments[0].deployment_uuid, SIM_UUIDS.deploymentRunning)
    assert.deepInclude(body.recent_deployments[1], { commit: '1a2b3c4', status: 'failed', duration_seconds: 100 })
    for (const secret of ['whsec-', 'pg-secret', 'redis-secret', 'ops-demo-token', 'sentinel-token', 'base64:']) {
      assert.notInclude(response.text(), secret)
    }
    assert.includeMembers(upstream.requests().map((r) => `${r.method} ${r.path}`), [
      'GET /version',
      'GET /applications',
      'GET /databases',
      'GET /services',
      'GET /servers',
      `GET /deployments/applications/${SIM_UUIDS.app}`,
    ])
  })

  test('reports Coolify as unreachable with 200 instead of failing', async ({ client, assert }) => {
    const admin = await createAdmin()
    upstream.sim.setFault('*', { reset: true })
    const response = await client.get(api('/stats')).loginAs(admin)
    response.assertStatus(200)
    assert.isFalse(response.body().coolify.reachable)
    assert.include(response.body().coolify.error, 'coolify')
    assert.equal(response.body().applications.total, 0)
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { MASK } from '#services/coolify/masking'
import { api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const APP = SIM_UUIDS.app

test.group('Coolify API | applications', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('GET /applications/:uuid proxies GET /applications/{uuid} with secrets masked', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/applications/${APP}`)).loginAs(admin)
    response.assertStatus(200)
    assert.equal(response.body().uuid, APP)
    assert.equal(response.body().fqdn, 'https://hrvault.example.com')
    assert.equal(response.body().manual_webhook_secret_github, MASK)
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/applications/${APP}`, query: {} })
    assert.equal(upstream.last().auth, `Bearer ${upstream.sim.token}`)
  })

  test('reveal=true shows the webhook secret and is audited', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/applications/${APP}`)).qs({ reveal: true }).loginAs(admin)
    response.assertStatus(200)
    assert.equal(response.body().manual_webhook_secret_github, 'whsec-github-hrvault-5e1d9c')
    const [row] = await auditRows('coolify.reveal')
    assert.equal(row.actor, admin.email)
    assert.equal(row.target, `application:${APP}`)
  })

  test('POST deploy sends POST /deploy?uuid=&force= and is audited', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/applications/${APP}/deploy`)).json({ force: true }).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    assert.equal(response.body().resource_uuid, APP)
    assert.isString(response.body().deployment_uuid)
    assert.equal(response.body().message, 'Application hrvault deployment queued.')
    assert.deepInclude(upstream.last(), { method: 'POST', path: '/deploy', query: { uuid: APP, force: 'true' } })
    const [row] = await auditRows('coolify.deploy')
    assert.equal(row.outcome, 'success')
  })

  test('two deploys in a row queue two deployments (never cached)', async ({ client, assert }) => {
    const admin = await createAdmin()
    const first = await client.post(api(`/applications/${APP}/deploy`)).loginAs(admin).withCsrfToken()
    const second = await client.post(api(`/applications/${APP}/deploy`)).loginAs(admin).withCsrfToken()
    assert.notEqual(first.body().deployment_uuid, second.body().deployment_uuid)
    assert.deepEqual(
      upstream.requests().filter((r) => r.path === '/deploy').map((r) => [r.method, r.query.force]),
      [['POST', 'false'], ['POST', 'false']]
    )
  })

  test('POST restart maps to POST /applications/{uuid}/restart', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/applications/${APP}/restart`)).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({ message: 'Restart request queued.' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/applications/${APP}/restart`, query: {} })
  })

  test('POST stop forwards docker_cleanup', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/applications/${APP}/stop`)).json({ docker_cleanup: false }).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({ message: 'Application stopping request queued.' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/applications/${APP}/stop`, query: { docker_cleanup: 'false' } })
    upstream.sim.state.applications[0].status = 'running:healthy'
  })

  test('POST start forwards force and instant_deploy', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client
      .post(api(`/applications/${APP}/start`))
      .json({ force: true, instant_deploy: true })
      .loginAs(admin)
      .withCsrfToken()
    response.assertStatus(200)
    assert.isString(response.body().deployment_uuid)
    assert.deepInclude(upstream.last(), {
      method: 'POST',
      path: `/applications/${APP}/start`,
      query: { force: 'true', instant_deploy: 'true' },
    })
  })

  test('GET logs forwards lines and is never cached', async ({ client, assert }) => {
    const admin = await createAdmin()
    const first = await client.get(api(`/applications/${APP}/logs`)).qs({ lines: 5 }).loginAs(admin)
    await client.get(api(`/applications/${APP}/logs`)).qs({ lines: 5 }).loginAs(admin)
    first.assertStatus(200)
    assert.lengthOf(first.body().logs.split('\n'), 5)
    const calls = upstream.requests().filter((r) => r.path === `/applications/${APP}/logs`)
    assert.lengthOf(calls, 2)
    assert.deepEqual(calls[0].query, { lines: '5' })
  })

  test('GET logs of a stopped application passes Coolify 400 through', async ({ client }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/applications/${SIM_UUIDS.appNoOps}/logs`)).loginAs(admin)
    response.assertStatus(400)
    response.assertBodyContains({ status: 400, detail: 'Coolify: Application is not running.', upstream: 'coolify' })
  })

  test('lines outside 1–10000 is a 422 before any upstream call', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/applications/${APP}/logs`)).qs({ lines: 0 }).loginAs(admin)
    response.assertStatus(422)
    response.assertBodyContains({ errors: [{ field: 'lines' }] })
    assert.lengthOf(upstream.requests(), 0)
  })

  test('PATCH forwards Coolify field names (domains, limits_cpus)', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client
      .patch(api(`/applications/${SIM_UUIDS.appNoOps}`))
      .json({ domains: 'https://www.example.net', limits_cpus: '1.5' })
      .loginAs(admin)
      .withCsrfToken()
    response.assertStatus(200)
    assert.deepInclude(upstream.last(), {
      method: 'PATCH',
      path: `/applications/${SIM_UUIDS.appNoOps}`,
      body: { domains: 'https://www.example.net', limits_cpus: '1.5' },
    })
  })

  test('an unknown application is a 404 from Coolify', async ({ client }) => {
    const admin = await createAdmin()
    const response = await client.get(api('/applications/doesnotexist')).loginAs(admin)
    response.assertStatus(404)
    response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
    response.assertBodyContains({ detail: 'Coolify: Application not found.' })
  })
})

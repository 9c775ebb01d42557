import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const APP = SIM_UUIDS.app

test.group('Coolify API | deployments', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('GET /applications/:uuid/deployments pages with skip and take', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/applications/${APP}/deployments`)).qs({ skip: 1, take: 2 }).loginAs(admin)
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.count, 3)
    assert.deepEqual([body.skip, body.take], [1, 2])
    assert.deepEqual(
      body.deployments.map((d: { deployment_uuid: string }) => d.deployment_uuid),
      [SIM_UUIDS.deploymentFailed, SIM_UUIDS.deploymentFinished]
    )
    assert.notProperty(body.deployments[0], 'logs')
    assert.equal(body.deployments[0].duration_seconds, 100)
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/deployments/applications/${APP}`, query: { skip: '1', take: '2' } })
  })

  test('defaults to skip=0, take=10 and rejects take above 100', async ({ client, assert }) => {
    const admin = await createAdmin()
    const ok = await client.get(api(`/applications/${APP}/deployments`)).loginAs(admin)
    ok.assertStatus(200)
    assert.deepEqual(upstream.last().query, { skip: '0', take: '10' })
    const bad = await client.get(api(`/applications/${APP}/deployments`)).qs({ take: 101 }).loginAs(admin)
    bad.assertStatus(422)
  })

  test('GET /deployments/:uuid returns the details without the raw logs', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/deployments/${SIM_UUIDS.deploymentFinished}`)).loginAs(admin)
    response.assertStatus(200)
    response.assertBodyContains({ deployment_uuid: SIM_UUIDS.deploymentFinished, status: 'finished', duration_seconds: 192 })
    assert.notProperty(response.body(), 'logs')
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/deployments/${SIM_UUIDS.deploymentFinished}` })
  })

  test('GET /deployments/:uuid/logs parses the log entries and hides internal steps', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/deployments/${SIM_UUIDS.deploymentFailed}/logs`)).loginAs(admin)
    response.assertStatus(200)
    const { logs, status } = response.body()
    assert.equal(status, 'failed')
    assert.lengthOf(logs, 4)
    assert.deepInclude(logs.at(-1), { output: 'npm error code ERESOLVE', type: 'stderr', hidden: false })
    const all = await client.get(api(`/deployments/${SIM_UUIDS.deploymentFailed}/logs`)).qs({ include_hidden: true }).loginAs(admin)
    assert.lengthOf(all.body().logs, 5)
    // Live logs are read uncached.
    assert.lengthOf(upstream.requests().filter((r) => r.path === `/deployments/${SIM_UUIDS.deploymentFailed}`), 2)
  })

  test('POST cancel maps to POST /deployments/{uuid}/cancel and is audited', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/deployments/${SIM_UUIDS.deploymentRunning}/cancel`)).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({ message: 'Deployment cancelled successfully.', status: 'cancelled-by-user' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/deployments/${SIM_UUIDS.deploymentRunning}/cancel` })
    const [row] = await auditRows('coolify.deployment.cancel')
    assert.equal(row.outcome, 'success')
  })

  test('cancelling a finished deployment passes Coolify 400 through and audits the failure', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/deployments/${SIM_UUIDS.deploymentFinished}/cancel`)).loginAs(admin).withCsrfToken()
    response.assertStatus(400)
    response.assertBodyContains({ detail: 'Coolify: Deployment cannot be cancelled. Current status: finished' })
    const [row] = await auditRows('coolify.deployment.cancel')
    assert.equal(row.outcome, 'failure')
  })
})

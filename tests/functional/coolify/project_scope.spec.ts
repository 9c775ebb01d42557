import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { api, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const OUTSIDE: Array<[string, string]> = [
  ['GET', `/applications/${SIM_UUIDS.appOther}`],
  ['POST', `/applications/${SIM_UUIDS.appOther}/deploy`],
  ['GET', `/applications/${SIM_UUIDS.appOther}/envs`],
  ['PATCH', `/applications/${SIM_UUIDS.appOther}/envs/APP_KEY`],
  ['GET', `/applications/${SIM_UUIDS.appOther}/deployments`],
  ['GET', `/deployments/${SIM_UUIDS.deploymentOther}`],
  ['POST', `/deployments/${SIM_UUIDS.deploymentOther}/cancel`],
  ['GET', `/databases/${SIM_UUIDS.mysqlOther}`],
  ['POST', `/databases/${SIM_UUIDS.mysqlOther}/start`],
  ['GET', `/databases/${SIM_UUIDS.mysqlOther}/backups`],
  ['GET', `/servers/${SIM_UUIDS.serverOther}`],
  ['POST', `/servers/${SIM_UUIDS.serverOther}/validate`],
  ['GET', `/services/${SIM_UUIDS.serviceOther}`],
  ['POST', `/services/${SIM_UUIDS.serviceOther}/restart`],
  ['GET', `/projects/${SIM_UUIDS.otherProject}`],
  ['GET', `/projects/${SIM_UUIDS.otherProject}/environments`],
  ['GET', `/ops/${SIM_UUIDS.appOther}/health`],
  ['GET', '/applications/doesnotexist'],
  ['GET', '/deployments/doesnotexist'],
]

test.group('Coolify API | project scope (COOLIFY_PROJECT_UUID)', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group, {}, { projectUuid: SIM_UUIDS.project })

  test('{0} {1} outside the project is a 403 and changes nothing upstream')
    .with(OUTSIDE)
    .run(async ({ client, assert }, [method, path]) => {
      const admin = await createAdmin()
      const request = method === 'GET' ? client.get(api(path)) : method === 'POST' ? client.post(api(path)) : client.patch(api(path)).json({ value: 'x' })
      const response = await request.loginAs(admin).withCsrfToken()
      response.assertStatus(403)
      response.assertBodyContains({ code: 'E_COOLIFY_OUT_OF_SCOPE' })
      // Only read-only lookups of the project inventory reached Coolify: no mutation.
      assert.isTrue(upstream.requests().every((r) => r.method === 'GET'))
    })

  test('resources inside the project stay reachable', async ({ client }) => {
    const admin = await createAdmin()
    for (const path of [
      `/applications/${SIM_UUIDS.app}`,
      `/applications/${SIM_UUIDS.appNoOps}`,
      `/databases/${SIM_UUIDS.postgres}`,
      `/servers/${SIM_UUIDS.server}`,
      `/services/${SIM_UUIDS.service}`,
      `/projects/${SIM_UUIDS.project}`,
      `/deployments/${SIM_UUIDS.deploymentFinished}`,
    ]) {
      const response = await client.get(api(path)).loginAs(admin)
      response.assertStatus(200)
    }
  })

  test('lists only show the project', async ({ client, assert }) => {
    const admin = await createAdmin()
    const uuids = async (path: string) =>
      (await client.get(api(path)).loginAs(admin)).body().map((r: { uuid: string }) => r.uuid)
    assert.deepEqual(await uuids('/projects'), [SIM_UUIDS.project])
    assert.sameMembers(await uuids('/databases'), [SIM_UUIDS.postgres, SIM_UUIDS.redis])
    assert.deepEqual(await uuids('/services'), [SIM_UUIDS.service])
    assert.deepEqual(await uuids('/servers'), [SIM_UUIDS.server])
    const stats = await client.get(api('/stats')).loginAs(admin)
    assert.equal(stats.body().applications.total, 2)
    assert.deepEqual(stats.body().project, { uuid: SIM_UUIDS.project, name: 'HRVault' })
  })
})

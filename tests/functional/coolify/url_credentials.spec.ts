import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const APP = SIM_UUIDS.app
const MASK = '********'
const GIT_TOKEN = 'ghp_Cr3dInUrL0000000000000000000000000'
const REPO = `https://x-access-token:${GIT_TOKEN}@github.com/acme/hrvault.git`
const RUN_SECRET = 'sk_live_RunOpt10n5ecret'
const COMPOSE_SECRET = 'c0mp0se-smtp-pa55'

test.group('Coolify API | credentials outside the secret field names', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  const application = () => upstream.sim.state.applications.find((a) => a.uuid === APP)!

  test('an application hides the credentials in git_repository and its docker run options unless revealed', async ({ client, assert }) => {
    Object.assign(application(), { git_repository: REPO, custom_docker_run_options: `--env STRIPE=${RUN_SECRET}` })
    const admin = await createAdmin()
    const masked = await client.get(api(`/applications/${APP}`)).loginAs(admin)
    masked.assertStatus(200)
    assert.equal(masked.body().git_repository, `https://x-access-token:${MASK}@github.com/acme/hrvault.git`)
    assert.equal(masked.body().custom_docker_run_options, MASK)
    assert.notInclude(masked.text(), GIT_TOKEN)
    assert.notInclude(masked.text(), RUN_SECRET)

    const revealed = await client.get(api(`/applications/${APP}`)).qs({ reveal: true }).loginAs(admin)
    assert.equal(revealed.body().git_repository, REPO)
    assert.equal(revealed.body().custom_docker_run_options, `--env STRIPE=${RUN_SECRET}`)
    assert.lengthOf(await auditRows('coolify.reveal'), 1)
  })

  test('a service hides its compose file unless revealed', async ({ client, assert }) => {
    const service = upstream.sim.state.services.find((s) => s.uuid === SIM_UUIDS.service)!
    const compose = `services:\n  plausible:\n    environment:\n      - SMTP_PASS=${COMPOSE_SECRET}\n`
    service.docker_compose_raw = compose
    const admin = await createAdmin()
    const masked = await client.get(api(`/services/${SIM_UUIDS.service}`)).loginAs(admin)
    masked.assertStatus(200)
    assert.equal(masked.body().docker_compose_raw, MASK)
    assert.notInclude(masked.text(), COMPOSE_SECRET)
    const list = await client.get(api('/services')).loginAs(admin)
    assert.notInclude(list.text(), COMPOSE_SECRET)
    const revealed = await client.get(api(`/services/${SIM_UUIDS.service}`)).qs({ reveal: true }).loginAs(admin)
    assert.equal(revealed.body().docker_compose_raw, compose)
  })

  test('deployment logs, commit messages and application logs never carry URL credentials', async ({ client, assert }) => {
    const deployment = upstream.sim.state.deployments.find((d) => d.deployment_uuid === SIM_UUIDS.deploymentFinished)!
    deployment.logs = JSON.stringify([
      { command: `git clone ${REPO} /artifacts`, output: `Cloning into '/artifacts' from ${REPO}`, type: 'stdout', hidden: true, order: 1 },
      { command: null, output: `pushed to ${REPO}`, type: 'stdout', hidden: false, order: 2 },
    ])
    deployment.commit_message = `revert: mirror ${REPO}`
    const admin = await createAdmin()
    const logs = await client.get(api(`/deployments/${SIM_UUIDS.deploymentFinished}/logs`)).qs({ include_hidden: true }).loginAs(admin)
    logs.assertStatus(200)
    assert.lengthOf(logs.body().logs, 2)
    assert.include(logs.body().logs[0].command, `https://x-access-token:${MASK}@github.com`)
    for (const path of [
      `/deployments/${SIM_UUIDS.deploymentFinished}`,
      `/applications/${APP}/deployments`,
      '/stats',
    ]) {
      const response = await client.get(api(path)).loginAs(admin)
      response.assertStatus(200)
      assert.notInclude(response.text(), GIT_TOKEN, path)
    }
    assert.notInclude(logs.text(), GIT_TOKEN)

    upstream.sim.setFault('GET /applications/{uuid}/logs', { status: 200, body: { logs: `pull ${REPO}\nok` } })
    const appLogs = await client.get(api(`/applications/${APP}/logs`)).loginAs(admin)
    appLogs.assertStatus(200)
    assert.equal(appLogs.body().logs, `pull https://x-access-token:${MASK}@github.com/acme/hrvault.git\nok`)
  })

  test('a Coolify error quoting a URL with credentials is passed on masked', async ({ client, assert }) => {
    upstream.sim.setFault('PATCH /applications/{uuid}', {
      status: 422,
      body: { message: `Repository ${REPO} is not reachable.`, errors: { git_repository: [`${REPO} is invalid.`] } },
    })
    const admin = await createAdmin()
    const response = await client.patch(api(`/applications/${APP}`)).json({ name: 'renamed' }).loginAs(admin).withCsrfToken()
    response.assertStatus(422)
    assert.notInclude(response.text(), GIT_TOKEN)
    assert.include(response.body().detail, `https://x-access-token:${MASK}@github.com`)
  })
})

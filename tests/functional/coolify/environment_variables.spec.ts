import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { MASK } from '#services/coolify/masking'
import { api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const APP = SIM_UUIDS.app
const envsUrl = api(`/applications/${APP}/envs`)

test.group('Coolify API | environment variables', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group, {}, { cacheTtlMs: 60_000 })

  test('GET envs masks every value server-side', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(envsUrl).loginAs(admin)
    response.assertStatus(200)
    const body = response.body() as Array<{ key: string; value: string; real_value: string; is_buildtime: boolean }>
    assert.includeMembers(body.map((e) => e.key), ['APP_KEY', 'DATABASE_URL', 'OPS_PREFIX', 'OPS_TOKEN'])
    assert.isTrue(body.every((e) => e.value === MASK && e.real_value === MASK))
    assert.notInclude(response.text(), 'ops-demo-token')
    assert.notInclude(response.text(), 'pg-secret')
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/applications/${APP}/envs` })
    assert.equal(await auditRows('coolify.reveal').then((r) => r.length), 0)
  })

  test('reveal=true returns the values and writes an audit row naming the keys', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(envsUrl).qs({ reveal: 'true' }).loginAs(admin)
    response.assertStatus(200)
    const token = response.body().find((e: { key: string }) => e.key === 'OPS_TOKEN')
    assert.equal(token.value, 'ops-demo-token-7d4c1f0a9b')
    const [row] = await auditRows('coolify.reveal')
    assert.equal(row.actor, admin.email)
    assert.equal(row.target, `application:${APP}/envs`)
    assert.include(row.details!, 'OPS_TOKEN')
    assert.notInclude(row.details!, 'ops-demo-token')
  })

  test('POST envs creates with Coolify field names and answers 201', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client
      .post(envsUrl)
      .json({ key: 'FEATURE_FLAG', value: 'on', is_buildtime: false, is_runtime: true, comment: 'rollout' })
      .loginAs(admin)
      .withCsrfToken()
    response.assertStatus(201)
    assert.isString(response.body().uuid)
    assert.deepInclude(upstream.last(), {
      method: 'POST',
      path: `/applications/${APP}/envs`,
      body: { key: 'FEATURE_FLAG', value: 'on', is_buildtime: false, is_runtime: true, comment: 'rollout' },
    })
    const [row] = await auditRows('coolify.env.create')
    assert.equal(row.target, `application:${APP}/envs/FEATURE_FLAG`)
  })

  test('POST an existing key passes Coolify 409 through', async ({ client }) => {
    const admin = await createAdmin()
    const response = await client.post(envsUrl).json({ key: 'APP_KEY', value: 'x' }).loginAs(admin).withCsrfToken()
    response.assertStatus(409)
    response.assertBodyContains({ status: 409, upstream: 'coolify' })
  })

  test('POST with an invalid key is a 422 and never reaches Coolify', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(envsUrl).json({ key: '1-bad key', value: 'x' }).loginAs(admin).withCsrfToken()
    response.assertStatus(422)
    response.assertBodyContains({ errors: [{ field: 'key' }] })
    assert.lengthOf(upstream.requests(), 0)
  })

  test('PATCH by key sends PATCH /applications/{uuid}/envs with the key in the body', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client
      .patch(`${envsUrl}/OPS_PREFIX`)
      .json({ value: '/internal-ops', is_buildtime: false })
      .loginAs(admin)
      .withCsrfToken()
    response.assertStatus(200)
    assert.equal(response.body().key, 'OPS_PREFIX')
    assert.equal(response.body().value, MASK)
    assert.deepInclude(upstream.last(), {
      method: 'PATCH',
      path: `/applications/${APP}/envs`,
      body: { key: 'OPS_PREFIX', is_preview: false, value: '/internal-ops', is_buildtime: false },
    })
    assert.isFalse(upstream.requests().some((r) => r.path.startsWith(`/applications/${APP}/envs/`)))
  })

  test('PATCH by uuid resolves the key first', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.patch(`${envsUrl}/${SIM_UUIDS.envAppKey}`).json({ value: 'base64:new' }).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    assert.deepInclude(upstream.last(), { method: 'PATCH', body: { key: 'APP_KEY', is_preview: false, value: 'base64:new' } })
  })

  test('PATCH with is_preview=true targets the preview variable of that key', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.patch(`${envsUrl}/APP_KEY`).json({ value: 'base64:pr', is_preview: true }).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    assert.equal(response.body().uuid, SIM_UUIDS.envPreviewAppKey)
    assert.deepInclude(upstream.last(), { body: { key: 'APP_KEY', is_preview: true, value: 'base64:pr' } })
  })

  test('PATCH an unknown variable is a 404', async ({ client }) => {
    const admin = await createAdmin()
    const response = await client.patch(`${envsUrl}/NOPE`).json({ value: 'x' }).loginAs(admin).withCsrfToken()
    response.assertStatus(404)
  })

  test('DELETE by key deletes by the variable uuid upstream', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.delete(`${envsUrl}/DATABASE_URL`).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({ message: 'Environment variable deleted.' })
    assert.deepInclude(upstream.last(), { method: 'DELETE', path: `/applications/${APP}/envs/${SIM_UUIDS.envDatabaseUrl}` })
    const [row] = await auditRows('coolify.env.delete')
    assert.equal(row.outcome, 'success')
  })

  test('a mutation invalidates the GET cache: the next list shows the change', async ({ client, assert }) => {
    const admin = await createAdmin()
    const before = await client.get(envsUrl).qs({ reveal: true }).loginAs(admin)
    await client.get(envsUrl).qs({ reveal: true }).loginAs(admin)
    // The second read was served from the cache.
    assert.lengthOf(upstream.requests().filter((r) => r.method === 'GET' && r.path === `/applications/${APP}/envs`), 1)

    await client.patch(`${envsUrl}/OPS_PREFIX`).json({ value: '/changed' }).loginAs(admin).withCsrfToken()
    const after = await client.get(envsUrl).qs({ reveal: true }).loginAs(admin)
    const prefix = (r: typeof before) => r.body().find((e: { key: string }) => e.key === 'OPS_PREFIX').value
    assert.notEqual(prefix(before), '/changed')
    assert.equal(prefix(after), '/changed')
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { MASK } from '#services/coolify/masking'
import { api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'

const PG = SIM_UUIDS.postgres
const REDIS = SIM_UUIDS.redis

test.group('Coolify API | databases', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const upstream = useSimulator(group)

  test('GET /databases masks passwords and URL credentials', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api('/databases')).loginAs(admin)
    response.assertStatus(200)
    const pg = response.body().find((d: { uuid: string }) => d.uuid === PG)
    assert.equal(pg.postgres_password, MASK)
    assert.equal(pg.internal_db_url, `postgres://hrvault:${MASK}@${PG}:5432/hrvault`)
    assert.equal(pg.external_db_url, `postgres://hrvault:${MASK}@203.0.113.10:54321/hrvault`)
    for (const secret of ['pg-secret-Zq81', 'redis-secret-P0w9', 'mysql-secret-Lm3', 'mysql-root-Kx2']) {
      assert.notInclude(response.text(), secret)
    }
    assert.deepInclude(upstream.last(), { method: 'GET', path: '/databases' })
  })

  test('GET /databases/:uuid?reveal=true shows the password and is audited', async ({ client, assert }) => {
    const admin = await createAdmin()
    const masked = await client.get(api(`/databases/${REDIS}`)).loginAs(admin)
    assert.equal(masked.body().redis_password, MASK)
    const revealed = await client.get(api(`/databases/${REDIS}`)).qs({ reveal: true }).loginAs(admin)
    revealed.assertStatus(200)
    assert.equal(revealed.body().redis_password, 'redis-secret-P0w9')
    assert.deepInclude(upstream.last(), { method: 'GET', path: `/databases/${REDIS}` })
    const rows = await auditRows('coolify.reveal')
    assert.deepEqual(rows.map((r) => r.target), [`database:${REDIS}`])
  })

  test('POST start of a running database passes 400 "already running" through', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/databases/${PG}/start`)).loginAs(admin).withCsrfToken()
    response.assertStatus(400)
    response.assertBodyContains({ status: 400, detail: 'Coolify: Database is already running.', upstream: 'coolify' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/databases/${PG}/start` })
  })

  test('POST stop forwards docker_cleanup, then start succeeds', async ({ client, assert }) => {
    const admin = await createAdmin()
    const stop = await client.post(api(`/databases/${PG}/stop`)).json({ docker_cleanup: true }).loginAs(admin).withCsrfToken()
    stop.assertStatus(200)
    stop.assertBodyContains({ message: 'Database stopping request queued.' })
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/databases/${PG}/stop`, query: { docker_cleanup: 'true' } })
    const start = await client.post(api(`/databases/${PG}/start`)).loginAs(admin).withCsrfToken()
    start.assertStatus(200)
    start.assertBodyContains({ message: 'Database starting request queued.' })
  })

  test('POST restart maps to POST /databases/{uuid}/restart', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/databases/${PG}/restart`)).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    assert.deepInclude(upstream.last(), { method: 'POST', path: `/databases/${PG}/restart` })
    const [row] = await auditRows('coolify.database.restart')
    assert.equal(row.actor, admin.email)
  })

  test('GET backups returns schedules with their executions in one upstream call', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/databases/${PG}/backups`)).loginAs(admin)
    response.assertStatus(200)
    assert.equal(response.body()[0].uuid, SIM_UUIDS.backupSchedule)
    assert.equal(response.body()[0].executions[0].status, 'success')
    assert.deepEqual(upstream.requests().map((r) => `${r.method} ${r.path}`), [`GET /databases/${PG}/backups`])
  })

  test('POST backup runs the enabled schedule now with backup_now', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/databases/${PG}/backup`)).loginAs(admin).withCsrfToken()
    response.assertStatus(200)
    response.assertBodyContains({ backup_uuid: SIM_UUIDS.backupSchedule, created: false })
    assert.deepInclude(upstream.last(), {
      method: 'PATCH',
      path: `/databases/${PG}/backups/${SIM_UUIDS.backupSchedule}`,
      body: { backup_now: true },
    })
    const [row] = await auditRows('coolify.database.backup')
    assert.equal(row.outcome, 'success')
  })

  test('POST backup without a schedule needs a frequency (409), then creates one', async ({ client, assert }) => {
    const admin = await createAdmin()
    const refused = await client.post(api(`/databases/${REDIS}/backup`)).loginAs(admin).withCsrfToken()
    refused.assertStatus(409)
    const created = await client.post(api(`/databases/${REDIS}/backup`)).json({ frequency: 'daily' }).loginAs(admin).withCsrfToken()
    created.assertStatus(200)
    created.assertBodyContains({ created: true })
    assert.deepInclude(upstream.last(), {
      method: 'POST',
      path: `/databases/${REDIS}/backups`,
      body: { frequency: 'daily', enabled: true, backup_now: true },
    })
  })

  test('PATCH forwards limits_cpus (Coolify name) and rejects malformed values', async ({ client, assert }) => {
    const admin = await createAdmin()
    const ok = await client.patch(api(`/databases/${PG}`)).json({ limits_cpus: '0.5', is_public: false }).loginAs(admin).withCsrfToken()
    ok.assertStatus(200)
    assert.deepInclude(upstream.last(), { method: 'PATCH', path: `/databases/${PG}`, body: { limits_cpus: '0.5', is_public: false } })
    const bad = await client.patch(api(`/databases/${PG}`)).json({ limits_cpus: 'lots' }).loginAs(admin).withCsrfToken()
    bad.assertStatus(422)
  })
})

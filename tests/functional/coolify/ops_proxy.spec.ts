import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createServer } from 'node:net'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import env from '#start/env'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { TOKENS, useTestTokens } from '#tests/functional/ops/helpers'
import { allowPrivateOpsTargets, api, auditRows, createAdmin, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'
import { truncateDatabase } from '#tests/helpers/database'

const APP = SIM_UUIDS.app
const LOG_FILE = 'coolify-proxy.log'
/** This very test server: the in-process HRVault, registered in Coolify as a deployed app. */
const selfUrl = () => `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT')}`

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function writeProxyLog() {
  const time = Date.parse('2026-11-21T08:00:00Z')
  const lines = [
    { level: 30, msg: 'sync started', userId: 'u-1' },
    { level: 50, msg: 'sync failed: provider timeout', userId: 'u-1' },
    { level: 30, msg: 'request completed' },
    { level: 50, msg: 'database unavailable' },
  ].map((l, i) => JSON.stringify({ ...l, time: time + i * 1000, pid: 1, hostname: 'app' }))
  await mkdir(logDir, { recursive: true })
  await writeFile(join(logDir, LOG_FILE), lines.join('\n') + '\n')
}

test.group('Coolify API | ops proxy end to end', (group) => {
  // The ops health check and console runs use their own connections: truncate, no transaction.
  group.each.setup(() => truncateDatabase())
  group.setup(async () => {
    const restoreTokens = useTestTokens()
    await writeProxyLog()
    return async () => {
      restoreTokens()
      await rm(join(logDir, LOG_FILE), { force: true })
    }
  })
  allowPrivateOpsTargets(group)
  const upstream = useSimulator(group, {
    opsAppFqdn: selfUrl(),
    opsToken: TOKENS['*'],
    opsPrefix,
  })

  test('status reads OPS_PREFIX and OPS_TOKEN from Coolify and reports reachable and healthy', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
    response.assertStatus(200)
    assert.deepEqual(response.body(), { configured: true, reachable: true, healthy: true, reason: null, message: null })
    assert.notInclude(response.text(), TOKENS['*'])
    assert.includeMembers(upstream.requests().map((r) => `${r.method} ${r.path}`), [
      `GET /applications/${APP}`,
      `GET /applications/${APP}/envs`,
    ])
  })

  test('/health passes the ops health report through', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    response.assertStatus(200)
    assert.equal(response.body().status, 'healthy')
    assert.includeMembers(Object.keys(response.body().checks), ['database', 'cache', 'storage'])
  })

  test('/logs/{file}?level=ERROR returns only the ERROR entries of that file', async ({ client, assert }) => {
    const admin = await createAdmin()
    const list = await client.get(api(`/ops/${APP}/logs`)).loginAs(admin)
    list.assertStatus(200)
    assert.include(list.body().files, LOG_FILE)
    const response = await client.get(api(`/ops/${APP}/logs/${LOG_FILE}`)).qs({ level: 'error' }).loginAs(admin)
    response.assertStatus(200)
    const entries = response.body().entries as Array<{ level: string; message: string }>
    assert.deepEqual(entries.map((e) => [e.level, e.message]), [
      ['ERROR', 'database unavailable'],
      ['ERROR', 'sync failed: provider timeout'],
    ])
    const searched = await client.get(api(`/ops/${APP}/logs/${LOG_FILE}`)).qs({ search: 'SYNC', lines: 1 }).loginAs(admin)
    assert.deepEqual(searched.body().entries.map((e: { message: string }) => e.message), ['sync failed: provider timeout'])
  })

  test('an unknown log file stays a 404 from the ops API', async ({ client }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/ops/${APP}/logs/missing.log`)).loginAs(admin)
    response.assertStatus(404)
    response.assertBodyContains({ status: 404 })
  })

  test('/stats, /queue and /queue/failed are passed through', async ({ client, assert }) => {
    const admin = await createAdmin()
    const stats = await client.get(api(`/ops/${APP}/stats`)).loginAs(admin)
    stats.assertStatus(200)
    assert.properties(stats.body().stats, ['cpu', 'memory', 'disk'])
    const queue = await client.get(api(`/ops/${APP}/queue`)).loginAs(admin)
    queue.assertStatus(200)
    assert.property(queue.body(), 'failed_count')
    const failed = await client.get(api(`/ops/${APP}/queue/failed`)).loginAs(admin)
    failed.assertStatus(200)
    assert.isArray(failed.body().failed_jobs)
  })

  test('/console lists commands and POST /console runs one, audited', async ({ client, assert }) => {
    const admin = await createAdmin()
    const list = await client.get(api(`/ops/${APP}/console`)).loginAs(admin)
    list.assertStatus(200)
    assert.include(list.body().commands, 'list')
    const run = await client.post(api(`/ops/${APP}/console`)).json({ command: 'list' }).loginAs(admin).withCsrfToken()
    run.assertStatus(200)
    assert.containsSubset(run.body(), { success: true, command: 'list', exit_code: 0 })
    assert.exists(run.headers()['ratelimit-limit'])
    const [row] = await auditRows('coolify.ops.console')
    assert.containsSubset(row.toJSON(), { actor: admin.email, target: `application:${APP}/console`, outcome: 'success' })
  })

  test('a command outside the allowlist stays a 403 from the ops API', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.post(api(`/ops/${APP}/console`)).json({ command: 'db:wipe' }).loginAs(admin).withCsrfToken()
    response.assertStatus(403)
    response.assertHeader('content-type', 'application/problem+json; charset=utf-8')
    const [row] = await auditRows('coolify.ops.console')
    assert.equal(row.outcome, 'failure')
  })

  test('a token without the scope gets the ops API 403 passed through', async ({ client }) => {
    const admin = await createAdmin()
    // Change OPS_TOKEN in Coolify through the dashboard: this also empties the GET cache.
    const patched = await client
      .patch(api(`/applications/${APP}/envs/OPS_TOKEN`))
      .json({ value: TOKENS['health:read'] })
      .loginAs(admin)
      .withCsrfToken()
    patched.assertStatus(200)
    const health = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    health.assertStatus(200)
    const logs = await client.get(api(`/ops/${APP}/logs`)).loginAs(admin)
    logs.assertStatus(403)
    logs.assertBodyContains({ status: 403 })
    const consoleRun = await client.post(api(`/ops/${APP}/console`)).json({ command: 'list' }).loginAs(admin).withCsrfToken()
    consoleRun.assertStatus(403)
    await client.patch(api(`/applications/${APP}/envs/OPS_TOKEN`)).json({ value: TOKENS['*'] }).loginAs(admin).withCsrfToken()
  })

  test('an unknown token is reported by status as unauthorized, not unreachable', async ({ client, assert }) => {
    const admin = await createAdmin()
    await client.patch(api(`/applications/${APP}/envs/OPS_TOKEN`)).json({ value: 'not-a-token-at-all' }).loginAs(admin).withCsrfToken()
    const status = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
    assert.containsSubset(status.body(), { configured: true, reachable: true, healthy: null, reason: 'unauthorized' })
    const health = await client.get(api(`/ops/${APP}/health`)).loginAs(admin)
    health.assertStatus(401)
    await client.patch(api(`/applications/${APP}/envs/OPS_TOKEN`)).json({ value: TOKENS['*'] }).loginAs(admin).withCsrfToken()
  })

  test('an application without OPS_TOKEN is not configured: status says so, calls are 409', async ({ client, assert }) => {
    const admin = await createAdmin()
    const status = await client.get(api(`/ops/${SIM_UUIDS.appNoOps}/status`)).loginAs(admin)
    status.assertStatus(200)
    assert.containsSubset(status.body(), { configured: false, reachable: false, healthy: null, reason: 'no_ops_token' })
    const health = await client.get(api(`/ops/${SIM_UUIDS.appNoOps}/health`)).loginAs(admin)
    health.assertStatus(409)
    health.assertBodyContains({ code: 'E_COOLIFY_OPS_NOT_CONFIGURED', reason: 'no_ops_token' })
  })

  test('an application whose ops API is down is configured but unreachable (502 on calls)', async ({ client, assert }) => {
    const admin = await createAdmin()
    const port = await closedPort()
    const other = SIM_UUIDS.appOther
    await client.patch(api(`/applications/${other}`)).json({ domains: `http://127.0.0.1:${port}` }).loginAs(admin).withCsrfToken()
    await client.post(api(`/applications/${other}/envs`)).json({ key: 'OPS_TOKEN', value: TOKENS['*'] }).loginAs(admin).withCsrfToken()
    const status = await client.get(api(`/ops/${other}/status`)).loginAs(admin)
    assert.containsSubset(status.body(), { configured: true, reachable: false, healthy: null, reason: 'unreachable' })
    const health = await client.get(api(`/ops/${other}/health`)).loginAs(admin)
    health.assertStatus(502)
    health.assertBodyContains({ code: 'E_COOLIFY_OPS_UNREACHABLE', upstream: 'ops' })
  })

  test('an http domain that is not loopback is never used for the token', async ({ client, assert }) => {
    const admin = await createAdmin()
    const other = SIM_UUIDS.appOther
    await client.patch(api(`/applications/${other}`)).json({ domains: 'http://side.example.org' }).loginAs(admin).withCsrfToken()
    const status = await client.get(api(`/ops/${other}/status`)).loginAs(admin)
    assert.containsSubset(status.body(), { configured: false, reason: 'no_https_domain' })
  })

  test('mutating proxy calls are rate-limited per admin', async ({ client, assert }) => {
    const admin = await createAdmin()
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const response = await client.post(api(`/ops/${APP}/queue/retry-all`)).loginAs(admin).withCsrfToken()
      statuses.push(response.status())
      if (response.status() === 429) {
        assert.exists(response.headers()['retry-after'])
      }
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(200))
    assert.equal(statuses[10], 429)
    assert.lengthOf(await auditRows('coolify.ops.queue.retry-all'), 10)
  })
})

test.group('Coolify API | ops proxy with a Coolify token lacking read:sensitive', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  allowPrivateOpsTargets(group)
  useSimulator(group, { readSensitive: false, opsAppFqdn: selfUrl(), opsToken: TOKENS['*'] })

  test('status explains that OPS_TOKEN cannot be read', async ({ client, assert }) => {
    const admin = await createAdmin()
    const response = await client.get(api(`/ops/${APP}/status`)).loginAs(admin)
    response.assertStatus(200)
    assert.containsSubset(response.body(), { configured: false, reason: 'ops_token_not_readable' })
    assert.include(response.body().message, 'read:sensitive')
  })
})

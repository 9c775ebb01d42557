import { test } from '@japa/runner'
import { MASK, maskSecrets, maskUrlCredentials } from '#services/coolify/masking'
import { buildSeed, SIM_UUIDS } from '#services/coolify_simulator/seed'

test.group('Coolify masking | secrets', () => {
  test('masks env var values and real values', ({ assert }) => {
    const envs = buildSeed().envs[SIM_UUIDS.app]
    const masked = maskSecrets(envs)
    for (const env of masked) {
      assert.equal(env.value, MASK)
      assert.equal(env.real_value, MASK)
    }
    assert.deepEqual(masked.map((e) => e.key), envs.map((e) => e.key))
    assert.notInclude(JSON.stringify(masked), 'ops-demo-token')
  })

  test('masks webhook secrets, basic-auth and server tokens but keeps other fields', ({ assert }) => {
    const seed = buildSeed()
    const app = maskSecrets(seed.applications[0])
    assert.equal(app.manual_webhook_secret_github, MASK)
    assert.isNull(app.manual_webhook_secret_gitlab)
    assert.equal(app.fqdn, seed.applications[0].fqdn)
    assert.equal(app.git_commit_sha, 'HEAD')
    const server = maskSecrets(seed.servers[0]) as { settings: Record<string, unknown> }
    assert.equal(server.settings.sentinel_token, MASK)
    assert.equal(server.settings.is_reachable, true)
  })

  test('masks database passwords and the password inside database URLs', ({ assert }) => {
    const seed = buildSeed()
    const masked = maskSecrets(seed.databases)
    const text = JSON.stringify(masked)
    for (const secret of ['pg-secret-Zq81', 'redis-secret-P0w9', 'mysql-root-Kx2', 'mysql-secret-Lm3']) {
      assert.notInclude(text, secret)
    }
    assert.equal(masked[0].postgres_password, MASK)
    assert.equal(masked[0].internal_db_url, `postgres://hrvault:${MASK}@${SIM_UUIDS.postgres}:5432/hrvault`)
    assert.equal(masked[0].postgres_user, 'hrvault')
  })

  test('reveal returns the data unchanged', ({ assert }) => {
    const envs = buildSeed().envs[SIM_UUIDS.app]
    assert.deepEqual(maskSecrets(envs, true), envs)
  })

  test('null and empty secrets stay as they are', ({ assert }) => {
    assert.deepEqual(maskSecrets({ postgres_password: null, redis_password: '' }), { postgres_password: null, redis_password: '' })
  })

  test('URLs without credentials are unchanged', ({ assert }) => {
    assert.equal(maskUrlCredentials('redis://host:6379/0'), 'redis://host:6379/0')
    assert.equal(maskUrlCredentials('mysql://u:p@h/db'), `mysql://u:${MASK}@h/db`)
  })
})

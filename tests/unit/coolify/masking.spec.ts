import { test } from '@japa/runner'
import { MASK, maskSecrets, maskUrlCredentials } from '#services/coolify/masking'
import { buildSeed, SIM_UUIDS } from '#simulators/coolify/seed'

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

test.group('Coolify masking | credentials outside the secret field names', () => {
  const repo = 'https://x-access-token:ghp_R3p0T0k3n@github.com/acme/hrvault.git'

  test('masks the credentials of a URL in any field, keeping the rest of the URL', ({ assert }) => {
    const masked = maskSecrets({ git_repository: repo, fqdn: 'https://hrvault.example.com', nested: [{ note: repo }] })
    assert.deepEqual(masked, {
      git_repository: `https://x-access-token:${MASK}@github.com/acme/hrvault.git`,
      fqdn: 'https://hrvault.example.com',
      nested: [{ note: `https://x-access-token:${MASK}@github.com/acme/hrvault.git` }],
    })
  })

  test('masks a token alone in the user part, and every URL inside free text', ({ assert }) => {
    assert.equal(maskUrlCredentials('https://ghp_Al0n3@github.com/acme/x'), `https://${MASK}@github.com/acme/x`)
    const log = `Cloning ${repo} and pulling oci://robot:hunter2@registry.example.com/x, see https://docs.example.com/a@b`
    const masked = maskUrlCredentials(log)
    assert.notInclude(masked, 'ghp_R3p0T0k3n')
    assert.notInclude(masked, 'hunter2')
    assert.include(masked, `oci://robot:${MASK}@registry.example.com/x`)
    assert.include(masked, 'https://docs.example.com/a@b')
  })

  test('masks a password containing @ up to the host', ({ assert }) => {
    assert.equal(maskUrlCredentials('postgres://u:p@ss@db:5432/x'), `postgres://u:${MASK}@db:5432/x`)
  })

  test('masks custom_docker_run_options and compose files whole', ({ assert }) => {
    const service = {
      custom_docker_run_options: '--env STRIPE_KEY=sk_live_51abc --cap-add SYS_ADMIN',
      docker_compose_raw: 'services:\n  app:\n    environment:\n      - SMTP_PASS=m41lp4ss\n',
      docker_compose: 'services:\n  app:\n    environment:\n      SMTP_PASS: m41lp4ss\n',
      name: 'plausible',
    }
    assert.deepEqual(maskSecrets(service), {
      custom_docker_run_options: MASK,
      docker_compose_raw: MASK,
      docker_compose: MASK,
      name: 'plausible',
    })
    assert.deepEqual(maskSecrets({ custom_docker_run_options: null, docker_compose_raw: '' }), { custom_docker_run_options: null, docker_compose_raw: '' })
  })

  test('masks strings at the top level and in arrays (log answers)', ({ assert }) => {
    assert.equal(maskSecrets(repo), `https://x-access-token:${MASK}@github.com/acme/hrvault.git`)
    assert.deepEqual(maskSecrets({ logs: `git clone ${repo}` }), { logs: `git clone https://x-access-token:${MASK}@github.com/acme/hrvault.git` })
  })

  test('reveal returns these values unchanged too', ({ assert }) => {
    const app = { git_repository: repo, custom_docker_run_options: '--env A=b', docker_compose_raw: 'x: y' }
    assert.deepEqual(maskSecrets(app, true), app)
  })
})

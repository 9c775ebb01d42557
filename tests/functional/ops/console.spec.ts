import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import AuditLog from '#models/audit_log'
import { bearer, useTestTokens } from '#tests/functional/ops/helpers'
import { truncateDatabase } from '#tests/helpers/database'

/** Sets the console allowlist and timeout for one test, restoring them afterwards. */
function consoleConfig(commands: string | null, timeoutSeconds: string | null) {
  const previous = [env.get('OPS_CONSOLE_COMMANDS'), env.get('OPS_CONSOLE_TIMEOUT_SECONDS')]
  if (commands !== null) env.set('OPS_CONSOLE_COMMANDS', commands)
  if (timeoutSeconds !== null) env.set('OPS_CONSOLE_TIMEOUT_SECONDS', timeoutSeconds)
  return () => {
    env.set('OPS_CONSOLE_COMMANDS', String(previous[0] ?? ''))
    env.set('OPS_CONSOLE_TIMEOUT_SECONDS', String(previous[1] ?? '60'))
  }
}

test.group('Ops | console', (group) => {
  group.setup(() => useTestTokens())
  group.each.setup(() => truncateDatabase())

  test('lists the allowlisted commands (read-only defaults)', async ({ client }) => {
    const restore = consoleConfig('', null)
    try {
      const response = await client.get('/ops/console').header('Authorization', bearer('console:list'))
      response.assertStatus(200)
      response.assertBody({ commands: ['list', 'migration:status', 'sync:status'] })
    } finally {
      restore()
    }
  })

  test('runs an allowlisted command in a child process', async ({ client, assert }) => {
    const response = await client
      .post('/ops/console')
      .json({ command: 'list' })
      .header('Authorization', bearer('console:execute'))
    response.assertStatus(200)
    assert.containsSubset(response.body(), { success: true, command: 'list', exit_code: 0, timed_out: false })
    assert.include(response.body().output, 'migration:run')
    assert.notMatch(response.body().output, /\u001b\[/)
    const audit = await AuditLog.query().where('action', 'console.run').firstOrFail()
    assert.containsSubset(audit.toJSON(), { actorType: 'ops_token', target: 'list', outcome: 'success' })
  })

  test('a failing command is a 200 with success false and its exit code', async ({ client, assert }) => {
    const restore = consoleConfig('list,make:controller', null)
    try {
      // An unknown flag makes Ace exit non-zero without touching anything.
      const response = await client
        .post('/ops/console')
        .json({ command: 'list --no-such-flag' })
        .header('Authorization', bearer('console:execute'))
      response.assertStatus(200)
      assert.isFalse(response.body().success)
      assert.notEqual(response.body().exit_code, 0)
      assert.isTrue(Number.isInteger(response.body().exit_code))
      assert.isNotEmpty(response.body().output)
      const audit = await AuditLog.query().where('action', 'console.run').firstOrFail()
      assert.equal(audit.outcome, 'failure')
    } finally {
      restore()
    }
  })

  test('a command that outlives the timeout is stopped', async ({ client, assert }) => {
    const restore = consoleConfig(null, '0.2')
    try {
      const response = await client
        .post('/ops/console')
        .json({ command: 'list' })
        .header('Authorization', bearer('console:execute'))
      response.assertStatus(200)
      assert.containsSubset(response.body(), { success: false, timed_out: true, exit_code: 124 })
      assert.include(response.body().output, 'timed out after 0.2 s')
      const audit = await AuditLog.query().where('action', 'console.run').firstOrFail()
      assert.equal(audit.outcome, 'timeout')
    } finally {
      restore()
    }
  })

  test('secrets and absolute paths printed by a command come back scrubbed', async ({ client, assert, cleanup }) => {
    const secret = 'leak-4f9c2a7e1b'
    const previous = env.get('COOLIFY_TOKEN')
    env.set('COOLIFY_TOKEN', secret)
    cleanup(() => env.set('COOLIFY_TOKEN', previous ?? ''))
    const run = async (argument: string) => {
      // `list <namespace>` fails with `Namespace "<namespace>" is not defined`: an echo of its argument.
      const response = await client.post('/ops/console').json({ command: 'list', args: [argument] }).header('Authorization', bearer('*'))
      response.assertStatus(200)
      assert.isFalse(response.body().success)
      return response.body()
    }

    const leaked = await run(`${secret}:/usr/lib/hrvault-probe/x.js:9:1`)
    assert.include(leaked.output, 'Namespace "[redacted]:<path>:9:1" is not defined')
    assert.equal(leaked.command, 'list [redacted]:<path>:9:1')
    assert.notInclude(leaked.output, secret)
    assert.notInclude(leaked.output, '/usr/lib')

    const local = await run(app.makePath('app', 'jobs'))
    assert.include(local.output, 'Namespace "./app/jobs" is not defined')
    assert.notInclude(local.output, app.makePath())

    const audits = await AuditLog.query().where('action', 'console.run')
    assert.lengthOf(audits, 2)
    for (const audit of audits) assert.notInclude(JSON.stringify(audit.toJSON()), secret)
  })

  test('a failing migration:status on the pg connection answers without absolute paths or the password', async ({ client, assert, cleanup }) => {
    // As deployed (NODE_ENV=production logs to stdout), against a database that does not exist:
    // the connection error is logged with a stack trace naming files under the application root.
    const password = 'Pg-Passw0rd-7d1e'
    const previous = { url: env.get('DATABASE_URL'), nodeEnv: env.get('NODE_ENV') }
    const server = new URL(previous.url ?? 'postgres://postgres@127.0.0.1:5432/hrvault')
    env.set('DATABASE_URL', `postgres://${server.username || 'postgres'}:${password}@${server.host}/hrvault_no_such_database`)
    env.set('NODE_ENV', 'production')
    cleanup(() => {
      env.set('DATABASE_URL', previous.url ?? '')
      env.set('NODE_ENV', previous.nodeEnv ?? 'test')
    })
    const response = await client
      .post('/ops/console')
      .json({ command: 'migration:status --connection=pg' })
      .header('Authorization', bearer('*'))
    response.assertStatus(200)
    const { output, success } = response.body()
    assert.isFalse(success)
    assert.notInclude(output, app.makePath())
    assert.notInclude(output, 'file:///')
    assert.notInclude(output, password)
    assert.notInclude(output, 'hrvault_no_such_database@')
    // With a PostgreSQL server to refuse the database, the logged stack trace is there, made relative.
    if (output.includes('does not exist')) assert.include(output, '(./node_modules/pg-protocol/')
  })

  test('a command outside the allowlist is refused with 403 and the allowed list', async ({ client, assert }) => {
    for (const command of ['migration:rollback', 'list; rm -rf /', 'db:wipe --force']) {
      const response = await client
        .post('/ops/console')
        .json({ command })
        .header('Authorization', bearer('console:execute'))
      response.assertStatus(403)
      assert.include(response.header('content-type'), 'application/problem+json')
      assert.containsSubset(response.body(), {
        code: 'E_OPS_CONSOLE_COMMAND_NOT_ALLOWED',
        allowed_commands: ['list', 'migration:status', 'sync:status'],
      })
    }
    const refused = await AuditLog.query().where('action', 'console.run').where('outcome', 'refused')
    assert.lengthOf(refused, 3)
  })

  test('a missing or empty command is a 422 problem', async ({ client }) => {
    for (const body of [{}, { command: '' }, { command: 42 }, { command: 'list', args: 'x' }]) {
      const response = await client.post('/ops/console').json(body).header('Authorization', bearer('*'))
      response.assertStatus(422)
    }
  })

  test('console runs are limited to 10 a minute per token', async ({ client, assert }) => {
    for (let i = 0; i < 10; i++) {
      const refused = await client
        .post('/ops/console')
        .json({ command: 'not-allowed' })
        .header('Authorization', bearer('burst'))
      refused.assertStatus(403)
    }
    const limited = await client.post('/ops/console').json({ command: 'list' }).header('Authorization', bearer('burst'))
    limited.assertStatus(429)
    assert.include(limited.header('content-type'), 'application/problem+json')
    assert.isAbove(Number(limited.header('retry-after')), 0)
    assert.equal(limited.header('ratelimit-limit'), '10')
    assert.equal(limited.header('ratelimit-remaining'), '0')
    const otherToken = await client.get('/ops/console').header('Authorization', bearer('console:list'))
    otherToken.assertStatus(200)
  })
})

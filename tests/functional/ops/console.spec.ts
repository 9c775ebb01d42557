import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import AuditLog from '#models/audit_log'
import { bearer, useTestTokens } from '#tests/functional/ops/helpers'

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
  group.each.setup(() => testUtils.db().truncate())

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

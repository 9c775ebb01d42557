import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import ApiKey from '#models/api_key'
import { ApiKeyService, hashApiKey } from '#services/auth/api_key_service'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'

const sleepUrl = (userId: string) => `/api/v1/users/${userId}/sleep`

test.group('API keys | authentication', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the API is open on loopback while no key exists', async ({ client }) => {
    const user = await createUser()
    const response = await client.get(sleepUrl(user.externalId))
    response.assertStatus(200)
    response.assertBody([])
  })

  test('a key is required once one exists', async ({ client, assert }) => {
    const user = await createUser()
    await serviceApiKey()
    const missing = await client.get(sleepUrl(user.externalId))
    missing.assertStatus(401)
    assert.match(missing.header('content-type') ?? '', /application\/problem\+json/)
    missing.assertBodyContains({ status: 401, code: 'E_INVALID_API_KEY' })

    const wrong = await client.get(sleepUrl(user.externalId)).header('X-API-Key', 'hrv_wrong')
    wrong.assertStatus(401)
  })

  test('a service key reads any user', async ({ client }) => {
    const user = await createUser()
    const key = await serviceApiKey()
    const response = await client.get(sleepUrl(user.externalId)).header('X-API-Key', key)
    response.assertStatus(200)
  })

  test('a user-scoped key gets 403 on another user', async ({ client }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    const own = await client.get(sleepUrl(user.externalId)).header('X-API-Key', apiKey)
    own.assertStatus(200)
    const foreign = await client.get(sleepUrl(other.externalId)).header('X-API-Key', apiKey)
    foreign.assertStatus(403)
    foreign.assertBodyContains({ status: 403, code: 'E_FORBIDDEN_USER' })
  })

  test('a revoked key is refused with 401', async ({ client }) => {
    const { user, apiKey } = await userWithApiKey()
    const stored = await ApiKey.findByOrFail('keyHash', hashApiKey(apiKey))
    await (await app.container.make(ApiKeyService)).revoke(stored.prefix)
    const response = await client.get(sleepUrl(user.externalId)).header('X-API-Key', apiKey)
    response.assertStatus(401)
  })

  test('keys are stored as SHA-256 hashes, never in plain text', async ({ assert }) => {
    const { plain, apiKey } = await (await app.container.make(ApiKeyService)).create('hash check')
    assert.equal(apiKey.keyHash, hashApiKey(plain))
    assert.notInclude(JSON.stringify(apiKey.toJSON()), plain)
    assert.isAtLeast(Buffer.from(plain.slice(4), 'base64url').length * 8, 160)
  })

  test('unknown user is a 404 problem', async ({ client }) => {
    const key = await serviceApiKey()
    const response = await client.get(sleepUrl('nobody_here')).header('X-API-Key', key)
    response.assertStatus(404)
    response.assertBodyContains({ status: 404, code: 'E_UNKNOWN_USER' })
  })
})

test.group('API keys | ace command', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('api-key create prints the key once and stores only its hash', async ({ assert }) => {
    const user = await createUser()
    const command = await ace.create((await import('#commands/api_key')).default, [
      'create',
      '--name=cli key',
      `--user=${user.externalId}`,
    ])
    command.ui.switchMode('raw')
    await command.exec()
    command.assertSucceeded()
    const printed = command.logger.getLogs().map((log) => log.message).join('\n')
    const plain = printed.match(/hrv_[A-Za-z0-9_-]{43}/)?.[0]
    assert.exists(plain)
    const stored = await ApiKey.findByOrFail('keyHash', hashApiKey(plain!))
    assert.equal(stored.userId, user.id)
    assert.equal(stored.name, 'cli key')
  })

  test('api-key revoke <prefix> revokes and api-key list shows it', async ({ assert }) => {
    const { apiKey } = await (await app.container.make(ApiKeyService)).create('to revoke')
    const revoke = await ace.create((await import('#commands/api_key')).default, ['revoke', apiKey.prefix])
    revoke.ui.switchMode('raw')
    await revoke.exec()
    revoke.assertSucceeded()
    await apiKey.refresh()
    assert.isNotNull(apiKey.revokedAt)

    const list = await ace.create((await import('#commands/api_key')).default, ['list'])
    list.ui.switchMode('raw')
    await list.exec()
    list.assertSucceeded()
  })
})

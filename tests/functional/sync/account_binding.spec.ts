import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { completeToken, simulatorPerTest, snapshot } from '#tests/functional/sync/simulator_context'

const triggerUrl = (userId: string) => `/api/v1/users/${userId}/sync/trigger`

async function dataVersion(userId: number) {
  const row = await db.from('users').where('id', userId).select('data_version').firstOrFail()
  return Number(row.data_version)
}

test.group('Sync | one Polar account per user', (group) => {
  const context = simulatorPerTest(group)

  test('the first sync binds the user to the account its data names', async ({ client, assert }) => {
    const ctx = context()
    const token = completeToken('alice')
    const response = await client.post(triggerUrl('alice')).header('X-Provider-Token', token)
    response.assertStatus(200)
    const alice = await User.findByOrFail('externalId', 'alice')
    assert.equal(alice.polarUserId, String(ctx.sim.polarUserIdOf(token)))
  })

  test("another account's token is refused with 409 and writes nothing", async ({ client, assert }) => {
    const ctx = context()
    const own = completeToken('alice')
    ;(await client.post(triggerUrl('alice')).header('X-Provider-Token', own)).assertStatus(200)
    const alice = await User.findByOrFail('externalId', 'alice')
    const before = await snapshot(alice.id)
    const versionBefore = await dataVersion(alice.id)
    assert.isAbove(before.sleep_records.length, 0)

    // The simulator gives another token other nights: a sync would have replaced alice's values.
    const response = await client.post(triggerUrl('alice')).header('X-Provider-Token', completeToken('mallory'))
    response.assertStatus(409)
    assert.equal(response.header('content-type'), 'application/problem+json; charset=utf-8')
    assert.equal(response.body().code, 'E_PROVIDER_ACCOUNT_MISMATCH')
    assert.equal(response.body().status, 409)

    assert.deepEqual(await snapshot(alice.id), before)
    assert.equal(await dataVersion(alice.id), versionBefore)
    await alice.refresh()
    assert.equal(alice.polarUserId, String(ctx.sim.polarUserIdOf(own)))
    // Not even a sync run: the refused request leaves the database as it was.
    assert.lengthOf(await SyncRun.query().where('userId', alice.id), 1)

    // The user's own token still syncs.
    ;(await client.post(triggerUrl('alice')).header('X-Provider-Token', own)).assertStatus(200)
  })

  test('an account bound to one user cannot be synced into another user', async ({ client, assert }) => {
    const token = completeToken('alice')
    ;(await client.post(triggerUrl('alice')).header('X-Provider-Token', token)).assertStatus(200)

    const response = await client.post(triggerUrl('bob')).header('X-Provider-Token', token)
    response.assertStatus(409)
    assert.equal(response.body().code, 'E_PROVIDER_ACCOUNT_MISMATCH')
    const bob = await User.findByOrFail('externalId', 'bob')
    assert.isNull(bob.polarUserId)
    assert.isNull(bob.providerTokenEncrypted)
    for (const [table, rows] of Object.entries(await snapshot(bob.id))) assert.lengthOf(rows, 0, table)
  })

  test('a user bound through OAuth is checked the same way', async ({ client, assert }) => {
    const ctx = context()
    const own = completeToken('carol')
    const carol = await User.create({ externalId: 'carol', isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(own)) })

    const refused = await client.post(triggerUrl('carol')).header('X-Provider-Token', completeToken('dave'))
    refused.assertStatus(409)
    for (const [table, rows] of Object.entries(await snapshot(carol.id))) assert.lengthOf(rows, 0, table)

    ;(await client.post(triggerUrl('carol')).header('X-Provider-Token', own)).assertStatus(200)
    assert.isAbove((await snapshot(carol.id)).sleep_records.length, 0)
  })
})

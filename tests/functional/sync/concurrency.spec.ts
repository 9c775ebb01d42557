import { test } from '@japa/runner'
import lock from '@adonisjs/lock/services/main'
import User from '#models/user'
import { userSyncLockKey } from '#services/sync/user_sync_service'
import { completeToken, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

test.group('Sync | one sync per user', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    // Every simulator answer takes 40 ms, so a sync lasts long enough to overlap.
    ctx = await startSimulatorContext('2026-03-15', { latencyMs: 40 })
    const cleanup = await freshDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  test('two concurrent triggers for one user give exactly one 409', async ({ client, assert }) => {
    const token = completeToken('twice')
    const fire = () => client.post('/api/v1/users/twice/sync/trigger?days=7').header('X-Provider-Token', token)
    const user = await User.create({ externalId: 'twice', isActive: true })
    const responses = await Promise.all([fire(), fire()])
    const statuses = responses.map((r) => r.status()).sort()
    assert.deepEqual(statuses, [200, 409])
    const conflict = responses.find((r) => r.status() === 409)!
    assert.equal(conflict.body().code, 'E_SYNC_IN_PROGRESS')
    assert.match(conflict.header('content-type') ?? '', /application\/problem\+json/)
    // The lock is released afterwards: the next trigger works.
    const after = await fire()
    after.assertStatus(200)
    assert.isFalse(await lock.createLock(userSyncLockKey(user.id)).isLocked())
  })

  test('triggers for different users run side by side', async ({ client, assert }) => {
    const responses = await Promise.all(
      ['left', 'right'].map((id) =>
        client.post(`/api/v1/users/${id}/sync/trigger?days=7`).header('X-Provider-Token', completeToken(id))
      )
    )
    assert.deepEqual(
      responses.map((r) => r.status()),
      [200, 200]
    )
  })
})

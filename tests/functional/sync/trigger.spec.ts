import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { completeToken, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const triggerUrl = (userId: string) => `/api/v1/users/${userId}/sync/trigger`

const SPEC_KEYS = [
  'sleep',
  'recharge',
  'activity',
  'exercises',
  'cardio_load',
  'sleepwise_alertness',
  'sleepwise_bedtime',
  'spo2',
  'ecg',
  'body_temperature',
  'skin_temperature',
]

test.group('Sync | trigger', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15')
    const cleanup = await testUtils.db().truncate()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  test('a first sync stores every type and answers the sync result', async ({ client, assert }) => {
    const token = completeToken('first')
    const response = await client.post(triggerUrl('first')).header('X-Provider-Token', token)
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'success')
    assert.equal(body.user_id, 'first')
    assert.sameMembers(Object.keys(body.results), [...SPEC_KEYS, 'heart_rate'])
    for (const key of SPEC_KEYS) assert.isAbove(body.results[key], 0, key)

    const user = await User.findByOrFail('externalId', 'first')
    const counts = await db.from('sleep_records').where('user_id', user.id).count('* as n')
    assert.equal(Number(counts[0].n), body.results.sleep)
    const run = await SyncRun.findByOrFail('userId', user.id)
    assert.equal(run.status, 'success')
  })
})

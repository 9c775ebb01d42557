import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { PROCESS_COUNTING, processCounter } from '#services/rate_limit_service'
import { emptyDatabase } from '#tests/helpers/database'
import { createUser, serviceApiKey } from '#tests/helpers/fixtures'
import { resetRateLimits, withRequestBudget } from '#tests/helpers/fuzz/rate_limits'

/**
 * The one-process profile (SQLite without Redis) counts the per-key API budget in memory: exactly,
 * written back to the database store, and continued from it after a restart. Scale-out keeps the
 * shared count (tests/functional/scale_out/multi_process.spec.ts).
 */
test.group('HTTP | per-key budget counted in process', (group) => {
  group.tap((t) => t.skip(!PROCESS_COUNTING, 'counted in Redis in this profile'))
  group.each.setup(async () => {
    await resetRateLimits()
    await emptyDatabase()
    return () => resetRateLimits()
  })

  test('exact counts, written back to the store, continued after a restart', async ({ client, assert, cleanup }) => {
    withRequestBudget(5, cleanup)
    const user = await createUser()
    const key = await serviceApiKey('counted')
    const url = `/api/v1/users/${user.externalId}/sleep`
    for (let i = 0; i < 3; i++) {
      const response = await client.get(url).header('X-API-Key', key)
      response.assertStatus(200)
      assert.equal(response.header('ratelimit-remaining'), String(4 - i))
    }

    await processCounter.flush()
    const rows = await db.from('rate_limits').where('key', 'like', '%api:key:%')
    assert.lengthOf(rows, 1)
    assert.equal(Number(rows[0].points), 3)

    // A new process (its memory empty) continues the window the store holds.
    processCounter.clear()
    const fourth = await client.get(url).header('X-API-Key', key)
    fourth.assertStatus(200)
    assert.equal(fourth.header('ratelimit-remaining'), '1')
    ;(await client.get(url).header('X-API-Key', key)).assertStatus(200)
    const spent = await client.get(url).header('X-API-Key', key)
    spent.assertStatus(429)
    assert.isAbove(Number(spent.header('retry-after')), 14 * 60)
  })
})

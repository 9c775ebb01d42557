import { test } from '@japa/runner'
import { bearer, useTestTokens } from '#tests/functional/ops/helpers'
import { resetRateLimits, withRequestBudget } from '#tests/helpers/fuzz/rate_limits'
import { emptyDatabase } from '#tests/helpers/database'

const PROBLEM = 'application/problem+json'

test.group('Ops | rate limits and Retry-After', (group) => {
  group.setup(() => useTestTokens())
  group.each.setup(async () => {
    await resetRateLimits()
    await emptyDatabase()
    // The address ends up limited for failed tokens: later tests must start with a full budget.
    return () => resetRateLimits()
  })

  test('a spent token budget answers Retry-After with the 15-minute window reset on every refusal', async ({ client, assert, cleanup }) => {
    withRequestBudget(2, cleanup)
    for (let i = 0; i < 2; i++) {
      const allowed = await client.get('/ops/health').header('Authorization', bearer('health:read'))
      assert.notEqual(allowed.status(), 429)
    }
    for (let i = 0; i < 3; i++) {
      const limited = await client.get('/ops/health').header('Authorization', bearer('health:read'))
      limited.assertStatus(429)
      assert.include(limited.header('content-type'), PROBLEM)
      assert.isAbove(Number(limited.header('retry-after')), 14 * 60, `refusal ${i + 1}`)
      assert.equal(limited.header('ratelimit-reset'), limited.header('retry-after'))
      assert.equal(limited.header('ratelimit-remaining'), '0')
    }
    const otherToken = await client.get('/ops/health').header('Authorization', bearer('*'))
    assert.notEqual(otherToken.status(), 429, 'the budget is per token')
  })

  test('failed tokens are counted per address: the 61st is a 429 with the real reset, a valid token still passes', async ({ client, assert }) => {
    for (let i = 0; i < 60; i++) {
      const refused = i % 2 === 0
        ? await client.get('/ops/health').header('Authorization', `Bearer wrong-token-${i}`)
        : await client.get('/ops/health')
      refused.assertStatus(401)
    }
    const limited = await client.get('/ops/health').header('Authorization', 'Bearer wrong-token-last')
    limited.assertStatus(429)
    assert.include(limited.header('content-type'), PROBLEM)
    const retryAfter = Number(limited.header('retry-after'))
    assert.isAbove(retryAfter, 10, 'the real reset of a one-minute window')
    assert.isAtMost(retryAfter, 60)
    assert.equal(limited.header('ratelimit-reset'), limited.header('retry-after'))

    const valid = await client.get('/ops/health').header('Authorization', bearer('health:read'))
    assert.notEqual(valid.status(), 429)
    assert.notEqual(valid.status(), 401)
  })
})

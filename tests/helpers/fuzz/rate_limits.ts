import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { redisEnabled } from '#config/redis'

/**
 * Forgets every rate-limit counter of this test run (the database table, or
 * this run's `rlflx` keys under REDIS_PREFIX; never a FLUSHDB, other runs
 * share the Redis server). Tests that send thousands of requests call it so
 * later tests start with a full budget.
 */
export async function resetRateLimits() {
  // Limiters also block spent keys in memory until their window resets: release those of the known policies.
  const { limiterFor, processCounter, redisCounter } = await import('#services/rate_limit_service')
  processCounter.clear()
  redisCounter.clear()
  const policies: Array<[number, string | number]> = [
    [60, '1 minute'],
    [10, '1 minute'],
    [30, '1 minute'],
    [20, '15 minutes'],
    [10, '15 minutes'],
    [1000, '15 minutes'],
    [Number(env.get('RATE_LIMIT_REQUESTS', 1000)), env.get('RATE_LIMIT_WINDOW', '15 minutes')],
  ]
  for (const [requests, window] of policies) limiterFor({ requests, window }).deleteInMemoryBlockedKeys()
  if (!redisEnabled) {
    await db.from('rate_limits').delete()
    return
  }
  const { default: redis } = await import('@adonisjs/redis/services/main')
  const connection = redis.connection('main').ioConnection
  const prefix = env.get('REDIS_PREFIX', '') ?? ''
  let cursor = '0'
  do {
    const [next, keys] = await connection.scan(cursor, 'MATCH', `${prefix}rlflx*`, 'COUNT', 500)
    cursor = next
    if (keys.length) await connection.del(...keys.map((k: string) => k.slice(prefix.length)))
  } while (cursor !== '0')
}

/**
 * Shrinks the per-key budget (RATE_LIMIT_REQUESTS in a 15-minute window) for one test and puts
 * it back, with the limiter's in-memory blocks, through `cleanup`.
 */
export function withRequestBudget(requests: number, cleanup: (fn: () => void) => void) {
  const previous = { requests: env.get('RATE_LIMIT_REQUESTS'), window: env.get('RATE_LIMIT_WINDOW') }
  env.set('RATE_LIMIT_REQUESTS', requests)
  env.set('RATE_LIMIT_WINDOW', '15 minutes')
  cleanup(async () => {
    const { limiterFor, redisCounter } = await import('#services/rate_limit_service')
    limiterFor({ requests, window: '15 minutes' }).deleteInMemoryBlockedKeys()
    redisCounter.clear()
    env.set('RATE_LIMIT_REQUESTS', previous.requests ?? 1000)
    env.set('RATE_LIMIT_WINDOW', previous.window ?? '15 minutes')
  })
}

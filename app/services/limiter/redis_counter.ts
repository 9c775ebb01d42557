import redis from '@adonisjs/redis/services/main'
import { CoalescedCalls } from '#services/coalesced_calls'
import type { Count } from '#services/limiter/process_counter'

/**
 * The limiter's own Redis script (rate-limiter-flexible's fixed window): start the window with its
 * expiry if the key is new, add the requests, return the total and the window's remaining ms.
 */
const INCREMENT = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`

/** The limiter's key prefix (rate-limiter-flexible's default), so both paths count in the same key. */
const KEY_PREFIX = 'rlflx'

type Connection = ReturnType<typeof redis.connection>['ioConnection'] & {
  hrvRateIncrement?: (key: string, amount: number, seconds: number) => Promise<[number, number]>
}

/**
 * Per-request budgets in Redis (the scale-out profile), counted in the same keys and with the same
 * script as the limiter's Redis store, so every process shares one exact count. Requests of a key
 * that arrive while two of its increments are on the way are counted together in the next one (one
 * round trip for all of them, each request getting its own place in the total: Redis runs the
 * scripts one after another, so each increment's total is its own); a spent key is refused
 * in this process until its window resets, as the limiter's in-memory block does.
 */
export class RedisCounter {
  #blockedUntil = new Map<string, number>()
  #increments = new CoalescedCalls<string, [number, number]>((entry, count) => {
    const split = entry.indexOf('|')
    return this.#connection().hrvRateIncrement!(`${KEY_PREFIX}:${entry.slice(split + 1)}`, count, Number(entry.slice(0, split)))
  }, 2)

  #connection(): Connection {
    const connection = redis.connection('main').ioConnection as Connection
    if (!connection.hrvRateIncrement) connection.defineCommand('hrvRateIncrement', { numberOfKeys: 1, lua: INCREMENT })
    return connection
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<Count> {
    const blocked = this.#blockedUntil.get(key)
    if (blocked !== undefined) {
      const left = blocked - Date.now()
      if (left > 0) return { limit, consumed: limit + 1, availableIn: Math.ceil(left / 1000) }
      this.#blockedUntil.delete(key)
    }
    const { result, index, count } = await this.#increments.call(`${Math.max(1, Math.floor(windowSeconds))}|${key}`)
    const [total, ttl] = result
    const consumed = Number(total) - count + 1 + index
    if (consumed > limit) this.#blockedUntil.set(key, Date.now() + Number(ttl))
    return { limit, consumed, availableIn: Math.ceil(Number(ttl) / 1000) }
  }

  /** Forgets the in-process blocks (tests, after deleting the keys). */
  clear() {
    this.#blockedUntil.clear()
  }
}

import limiter from '@adonisjs/limiter/services/main'
import logger from '@adonisjs/core/services/logger'
import RateLimitedException from '#exceptions/rate_limited_exception'

export interface RateLimitPolicy {
  /** Namespace of the counter, e.g. `api` or `ops`. */
  bucket: string
  requests: number
  /** Window as seconds or a duration string ("15 minutes"). */
  window: number | string
}

/**
 * The limiter of a policy. A spent key is also blocked in this process's memory, with no
 * duration of its own, so it stays blocked exactly until the window resets: no store round
 * trip per refused request, and `availableIn` is always the real reset.
 */
export function limiterFor(policy: Pick<RateLimitPolicy, 'requests' | 'window'>) {
  return limiter.use({
    requests: policy.requests,
    duration: policy.window,
    inMemoryBlockOnConsumed: policy.requests + 1,
  })
}

/**
 * Counts one request against a shared store (database or Redis) and returns
 * the RateLimit-* headers; throws RateLimitedException (429 + Retry-After)
 * when the window's budget is spent.
 */
export class RateLimitService {
  async hit(policy: RateLimitPolicy, key: string): Promise<Record<string, string>> {
    const counterKey = `${policy.bucket}:${key}`
    try {
      const response = await limiterFor(policy).consume(counterKey)
      return this.headers(response.limit, response.remaining, response.availableIn)
    } catch (error: any) {
      if (error?.code !== 'E_TOO_MANY_REQUESTS' || !error.response) throw error
      const { limit, availableIn } = error.response
      throw new RateLimitedException({
        ...this.headers(limit, 0, availableIn),
        'Retry-After': String(Math.max(1, availableIn)),
      })
    }
  }

  /**
   * Like `hit`, but a failing counter store (the database being down) is logged and the
   * request goes on uncounted, so an outage does not turn into 500s. A 429 still propagates.
   */
  async hitIfAvailable(policy: RateLimitPolicy, key: string): Promise<Record<string, string>> {
    try {
      return await this.hit(policy, key)
    } catch (error) {
      if (error instanceof RateLimitedException) throw error
      logger.warn({ err: error, bucket: policy.bucket }, 'rate-limit store unavailable; request not counted')
      return {}
    }
  }

  protected headers(limit: number, remaining: number, resetInSeconds: number) {
    return {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, remaining)),
      'RateLimit-Reset': String(Math.max(0, resetInSeconds)),
    }
  }
}

import limiter from '@adonisjs/limiter/services/main'
import RateLimitedException from '#exceptions/rate_limited_exception'

export interface RateLimitPolicy {
  /** Namespace of the counter, e.g. `api` or `ops`. */
  bucket: string
  requests: number
  /** Window as seconds or a duration string ("15 minutes"). */
  window: number | string
}

/**
 * Counts one request against a shared store (database or Redis) and returns
 * the RateLimit-* headers; throws RateLimitedException (429 + Retry-After)
 * when the window's budget is spent.
 */
export class RateLimitService {
  async hit(policy: RateLimitPolicy, key: string): Promise<Record<string, string>> {
    const bucket = limiter.use({
      requests: policy.requests,
      duration: policy.window,
      inMemoryBlockOnConsumed: policy.requests + 1,
      inMemoryBlockDuration: '10 seconds',
    })
    const counterKey = `${policy.bucket}:${key}`
    try {
      const response = await bucket.consume(counterKey)
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

  protected headers(limit: number, remaining: number, resetInSeconds: number) {
    return {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, remaining)),
      'RateLimit-Reset': String(Math.max(0, resetInSeconds)),
    }
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import env from '#start/env'
import { RateLimitService } from '#services/rate_limit_service'

/**
 * Per-key rate limit of the analytics API (RATE_LIMIT_REQUESTS per
 * RATE_LIMIT_WINDOW). Every response carries RateLimit-* headers; a spent
 * budget is a 429 with Retry-After. Runs after ApiKeyMiddleware.
 */
@inject()
export default class ApiRateLimitMiddleware {
  constructor(protected rateLimits: RateLimitService) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const subject = ctx.apiKey?.id ? `key:${ctx.apiKey.id}` : `ip:${ctx.request.ip()}`
    const headers = await this.rateLimits.hit(
      {
        bucket: 'api',
        requests: env.get('RATE_LIMIT_REQUESTS', 1000),
        window: env.get('RATE_LIMIT_WINDOW', '15 minutes'),
      },
      subject
    )
    for (const [name, value] of Object.entries(headers)) ctx.response.header(name, value)
    return next()
  }
}

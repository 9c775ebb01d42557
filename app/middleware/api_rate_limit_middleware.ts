import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import RateLimitedException from '#exceptions/rate_limited_exception'
import { RateLimitService, apiKeySubject, apiRequestPolicy, countedAhead } from '#services/rate_limit_service'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /**
     * The budget a request counts against when its credential is not an API key (an OAuth grant
     * on /mcp), set by the route's auth middleware.
     */
    rateLimitSubject?: string
  }
}

/**
 * Per-key rate limit of the analytics API and the MCP endpoint (RATE_LIMIT_REQUESTS per
 * RATE_LIMIT_WINDOW): one budget per API key, whichever surface it is used on, one per OAuth
 * grant (`ctx.rateLimitSubject`), else one per address. Every response carries RateLimit-*
 * headers; a spent budget is a 429 with Retry-After. Runs after the route's auth middleware.
 * Counted in this process in the one-web-process profile (RateLimitService PROCESS_COUNTING),
 * in the shared store otherwise; a count ReadFastPath already made for the request
 * (`countedAhead`) is used instead of a second one.
 */
@inject()
export default class ApiRateLimitMiddleware {
  constructor(protected rateLimits: RateLimitService) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const subject = ctx.rateLimitSubject ?? (ctx.apiKey?.id ? apiKeySubject(ctx.apiKey.id) : `ip:${ctx.request.ip()}`)
    const headers = await this.countOnce(ctx, subject)
    for (const [name, value] of Object.entries(headers)) ctx.response.header(name, value)
    return next()
  }

  /**
   * The request's count: the one ReadFastPath already made when it fell through to the pipeline
   * (its 429 stands; a count that failed, e.g. a Redis timeout, is made again here, as it was
   * before the fast path counted ahead), else a count of its own.
   */
  protected async countOnce(ctx: HttpContext, subject: string): Promise<Record<string, string>> {
    const ahead = countedAhead.get(ctx.request.request)
    if (ahead?.subject !== subject) return this.rateLimits.hit(apiRequestPolicy(), subject)
    try {
      return await ahead.count
    } catch (error) {
      if (error instanceof RateLimitedException) throw error
      return this.rateLimits.hit(apiRequestPolicy(), subject)
    }
  }
}

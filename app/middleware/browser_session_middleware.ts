import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import SessionMiddleware from '@adonisjs/session/session_middleware'
import { isSessionlessPath } from '#config/surfaces'

/**
 * Sessions for browsers only. The analytics and operations APIs authenticate
 * with headers: a session there only put a session cookie (and, with
 * SESSION_DRIVER=redis, a Redis write) on every answer.
 */
export default class BrowserSessionMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isSessionlessPath(ctx.request.url())) return next()
    const session = await ctx.containerResolver.make(SessionMiddleware)
    return session.handle(ctx, next)
  }
}

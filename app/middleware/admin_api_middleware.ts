import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import AdminUnauthenticatedException from '#exceptions/admin_unauthenticated_exception'

/**
 * Requires an admin session on JSON routes (the dashboard API). Answers a
 * problem+json 401 when logged out instead of redirecting to a login page.
 */
export default class AdminApiMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const authenticated = await ctx.auth.use('web').check()
    if (!authenticated) throw new AdminUnauthenticatedException()
    return next()
  }
}

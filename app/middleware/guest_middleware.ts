import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { ADMIN_HOME } from '#services/admin/safe_redirect'

/** Login and setup pages are for logged-out visitors; an admin goes to the home page. */
export default class GuestMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (await ctx.auth.use('web').check()) {
      return ctx.response.redirect(ADMIN_HOME)
    }
    return next()
  }
}

import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { SetupTokenService } from '#services/admin/setup_token_service'

/**
 * Every admin page requires a logged-in admin. Logged out: to the setup page
 * while no admin exists, otherwise to the login page with `next` set to the
 * requested page (GET only; validated again at login).
 */
export default class AuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (await ctx.auth.use('web').check()) return next()
    if (!(await new SetupTokenService().adminExists())) {
      return ctx.response.redirect('/admin/setup')
    }
    const target =
      ctx.request.method() === 'GET' ? `/admin/login?next=${encodeURIComponent(ctx.request.url(true))}` : '/admin/login'
    return ctx.response.redirect(target)
  }
}

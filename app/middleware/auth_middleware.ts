import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { SetupTokenService } from '#services/admin/setup_token_service'

/**
 * Every admin page requires a logged-in admin. Logged out: to the setup page
 * while no admin exists, otherwise to the login page with `next` set to the
 * requested page (GET only; validated again at login).
 */
const MAX_NEXT_LENGTH = 2000

@inject()
export default class AuthMiddleware {
  constructor(protected setupTokens: SetupTokenService) {}

  async handle(ctx: HttpContext, next: NextFn) {
    if (await ctx.auth.use('web').check()) return next()
    if (!(await this.setupTokens.adminExists())) {
      return ctx.response.redirect('/admin/setup')
    }
    // `next` only for GET and a bounded URL (as at login), so a hostile URL cannot inflate Location.
    const url = ctx.request.url(true)
    const target =
      ctx.request.method() === 'GET' && url.length <= MAX_NEXT_LENGTH
        ? `/admin/login?next=${encodeURIComponent(url)}`
        : '/admin/login'
    return ctx.response.redirect(target)
  }
}

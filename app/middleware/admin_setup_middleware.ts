import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { SetupTokenService } from '#services/admin/setup_token_service'

/** `/admin/setup` exists only while no admin does; afterwards it leads to the login page. */
export default class AdminSetupMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (await new SetupTokenService().adminExists()) {
      ctx.session?.flash('error', 'Setup is already complete. Log in instead.')
      return ctx.response.redirect('/admin/login')
    }
    return next()
  }
}

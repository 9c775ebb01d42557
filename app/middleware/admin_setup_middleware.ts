import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { SetupTokenService } from '#services/admin/setup_token_service'

/** `/admin/setup` exists only while no admin does; afterwards it leads to the login page. */
@inject()
export default class AdminSetupMiddleware {
  constructor(protected setupTokens: SetupTokenService) {}

  async handle(ctx: HttpContext, next: NextFn) {
    if (await this.setupTokens.adminExists()) {
      ctx.session?.flash('error', 'Setup is already complete. Log in instead.')
      return ctx.response.redirect('/admin/login')
    }
    return next()
  }
}

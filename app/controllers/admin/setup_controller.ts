import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import { AdminAccountService } from '#services/admin/admin_account_service'
import { ADMIN_HOME } from '#services/admin/safe_redirect'
import { setupValidator } from '#validators/admin'
import { LoginThrottleService } from '#services/admin/login_throttle_service'

/** First run: `/admin/setup` creates the first admin with the token from the server log. */
@inject()
export default class SetupController {
  constructor(
    protected throttle: LoginThrottleService,
    protected accounts: AdminAccountService
  ) {}

  async show({ inertia }: HttpContext) {
    return inertia.render('auth/setup', {})
  }

  async store({ request, response, session, auth }: HttpContext) {
    const { token, email, password } = await request.validateUsing(setupValidator)
    if (!(await this.throttle.checkSetup(request.ip()))) {
      session.flash('inputErrorsBag', { token: ['Too many attempts. Wait a few minutes and try again.'] })
      return response.redirect('/admin/setup')
    }
    const outcome = await this.accounts.setup(token, email, password)
    if (!outcome.ok) {
      if (outcome.reason === 'setup_closed') {
        session.flash('error', 'Setup is already complete. Log in instead.')
        return response.redirect('/admin/login')
      }
      session.flash('inputErrorsBag', { token: ['The setup token is invalid. Use the one printed in the server log.'] })
      return response.redirect('/admin/setup')
    }
    logger.info({ admin: outcome.admin.email }, 'first admin created through the setup page')
    await auth.use('web').login(outcome.admin)
    session.flash('success', 'Welcome to HRVault. Your admin account is ready.')
    return response.redirect(ADMIN_HOME)
  }
}

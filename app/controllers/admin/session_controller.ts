import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import { AdminAccountService } from '#services/admin/admin_account_service'
import { LoginThrottleService } from '#services/admin/login_throttle_service'
import { safeNext } from '#services/admin/safe_redirect'
import { SetupTokenService } from '#services/admin/setup_token_service'
import { loginPageValidator, loginValidator } from '#validators/admin'

const INVALID = 'The email or password is incorrect.'

/** Admin login and logout (session guard `web`, throttled per IP and per account). */
@inject()
export default class SessionController {
  constructor(
    protected throttle: LoginThrottleService,
    protected accounts: AdminAccountService,
    protected setupTokens: SetupTokenService
  ) {}

  async create({ inertia, request, response }: HttpContext) {
    const { next } = await request.validateUsing(loginPageValidator)
    if (!(await this.setupTokens.adminExists())) return response.redirect('/admin/setup')
    return inertia.render('auth/login', { next: next ? safeNext(next) : null })
  }

  async store({ request, response, session, auth }: HttpContext) {
    const { email, password, next } = await request.validateUsing(loginValidator)
    const target = safeNext(next)
    const back = `/admin/login?next=${encodeURIComponent(target)}`

    const verdict = await this.throttle.check(request.ip(), email)
    if (!verdict.allowed) {
      const minutes = Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60))
      response.header('Retry-After', String(verdict.retryAfterSeconds))
      session.flash('inputErrorsBag', {
        email: [`Too many login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`],
      })
      logger.warn({ ip: request.ip() }, 'admin login throttled')
      return response.redirect(back)
    }

    const admin = await this.accounts.verify(email, password)
    if (!admin) {
      await this.throttle.recordFailure(email)
      logger.info({ ip: request.ip() }, 'admin login failed')
      session.flash('inputErrorsBag', { email: [INVALID] })
      return response.redirect(back)
    }

    await this.throttle.recordSuccess(email)
    // The session guard regenerates the session id on login (no fixation).
    await auth.use('web').login(admin)
    await this.accounts.touchLogin(admin)
    return response.redirect(target)
  }

  async destroy({ response, auth, session }: HttpContext) {
    await auth.use('web').logout()
    session.regenerate()
    session.flash('success', 'You are logged out.')
    return response.redirect('/admin/login')
  }
}

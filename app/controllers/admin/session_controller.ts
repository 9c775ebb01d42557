import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import { AdminAccountService } from '#services/admin/admin_account_service'
import { LoginThrottleService } from '#services/admin/login_throttle_service'
import { safeNext } from '#services/admin/safe_redirect'
import { SetupTokenService } from '#services/admin/setup_token_service'
import { loginPageValidator, loginValidator } from '#validators/admin'

const INVALID = 'The email or password is incorrect.'

/** The message of a throttled login, in seconds under a minute and in minutes above. */
function tooMany(seconds: number) {
  if (seconds < 60) return `Too many login attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`
  const minutes = Math.ceil(seconds / 60)
  return `Too many login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

/**
 * Admin login and logout (session guard `web`). Login is throttled per address and per
 * (account, address) pair; a throttled attempt is a 429 with Retry-After that re-renders
 * the login page with the wait, and its password is not even checked.
 */
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

  async store({ inertia, request, response, session, auth }: HttpContext) {
    const { email, password, next } = await request.validateUsing(loginValidator)
    const target = safeNext(next)
    const back = `/admin/login?next=${encodeURIComponent(target)}`

    const verdict = await this.throttle.check(request.ip(), email)
    if (!verdict.allowed) {
      logger.warn({ ip: request.ip() }, 'admin login throttled')
      response.status(429).header('Retry-After', String(verdict.retryAfterSeconds))
      // `errors` is a shared prop (validation errors); this answer carries its own under the field.
      inertia.share({ errors: { email: tooMany(verdict.retryAfterSeconds) } })
      return inertia.render('auth/login', { next: next ? target : null })
    }

    const admin = await this.accounts.verify(email, password)
    if (!admin) {
      await this.throttle.recordFailure(request.ip(), email)
      logger.info({ ip: request.ip() }, 'admin login failed')
      session.flash('inputErrorsBag', { email: [INVALID] })
      return response.redirect(back)
    }

    await this.throttle.recordSuccess(request.ip(), email)
    // The session guard regenerates the session id on login (no fixation).
    await auth.use('web').login(admin)
    await this.accounts.touchLogin(admin)
    return response.redirect(target)
  }

  /**
   * Logs out everywhere: the admin's session version is bumped, so this session and
   * every copy of its cookie (or another browser's session) is refused from now on.
   */
  async destroy({ response, auth, session }: HttpContext) {
    const admin = auth.use('web').user
    if (admin) await this.accounts.endSessions(admin)
    await auth.use('web').logout()
    session.regenerate()
    session.flash('success', 'You are logged out.')
    return response.redirect('/admin/login')
  }
}

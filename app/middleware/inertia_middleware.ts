import { randomBytes } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BaseInertiaMiddleware from '@adonisjs/inertia/inertia_middleware'
import { dashboardPrefix } from '#config/surfaces'
import { adminPageHeaders, isAdminPagePath } from '#services/admin/security_headers'

/**
 * Inertia for the admin UI. Shares the logged-in admin, flash messages and
 * validation errors with every page, and gives admin pages their security
 * headers (a per-request CSP nonce, no inline script or style otherwise).
 * Requests outside the admin pages pass straight through.
 */
export default class InertiaMiddleware extends BaseInertiaMiddleware {
  async share(ctx: HttpContext) {
    const user = ctx.auth?.use('web').user
    return {
      errors: ctx.inertia.always(this.getValidationErrors(ctx)),
      admin: user ? { email: user.email } : null,
      dashboardPrefix,
      flash: {
        success: (ctx.session?.flashMessages.get('success') as string | undefined) ?? null,
        error: (ctx.session?.flashMessages.get('error') as string | undefined) ?? null,
      },
    }
  }

  async handle(ctx: HttpContext, next: NextFn) {
    // Only the admin pages render through Inertia; the API surfaces skip it entirely.
    if (!isAdminPagePath(ctx.request.url())) return next()
    const nonce = randomBytes(16).toString('base64')
    const vite = await ctx.containerResolver.make('vite')
    for (const [name, value] of Object.entries(adminPageHeaders(nonce, Boolean(vite.getDevServer())))) {
      ctx.response.header(name, value)
    }
    await this.init(ctx)
    if ('view' in ctx) {
      ;(ctx as any).view.share({ cspNonce: nonce })
    }
    const output = await next()
    this.dispose(ctx)
    return output
  }
}

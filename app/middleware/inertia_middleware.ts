import { randomBytes } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BaseInertiaMiddleware from '@adonisjs/inertia/inertia_middleware'
import { dashboardPrefix } from '#config/surfaces'
import { DATA_TYPE_LABELS } from '#services/records/data_types'
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
      /** Catalogue key → label, so pages name data types as the catalogue does. */
      dataTypes: DATA_TYPE_LABELS,
      flash: {
        success: (ctx.session?.flashMessages.get('success') as string | undefined) ?? null,
        error: (ctx.session?.flashMessages.get('error') as string | undefined) ?? null,
      },
    }
  }

  /**
   * On an asset-version mismatch Inertia answers 409 with the requested URL in
   * `X-Inertia-Location`, decoded: a path with characters a header cannot carry
   * (`/admin/%E2%80%AE`, `%00`) made writing the response throw and took the
   * process down. The URL is sent percent-encoded instead.
   */
  dispose(ctx: HttpContext) {
    super.dispose(ctx)
    const location = ctx.response.getHeader('x-inertia-location')
    if (typeof location === 'string' && /[^\t\x20-\x7e]/.test(location)) {
      let safe = '/admin'
      try {
        safe = encodeURI(location)
      } catch {}
      ctx.response.header('x-inertia-location', safe)
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

import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ShieldMiddleware from '@adonisjs/shield/shield_middleware'
import type { ShieldConfig } from '@adonisjs/shield/types'
import { isSessionlessPath } from '#config/surfaces'

let shields: Promise<{ browser: ShieldMiddleware; machine: ShieldMiddleware }> | undefined

/**
 * Built once per process (Shield's own binding rebuilt its guards and
 * imported edge.js on every request). The machine APIs get the same headers
 * without CSRF: they carry no session and no cookie to protect, and their
 * callers never read an XSRF-TOKEN cookie.
 */
async function build() {
  const config = app.config.get<ShieldConfig>('shield', {})
  const encryption = (await app.container.make('encryption')).use()
  const edge = app.usingEdgeJS ? (await import('edge.js')).default : undefined
  return {
    browser: new ShieldMiddleware(config, encryption, edge),
    machine: new ShieldMiddleware({ ...config, csrf: { ...config.csrf, enabled: false } }, encryption),
  }
}

/** Shield's security headers everywhere; CSRF (and its session secret and cookie) for browsers only. */
export default class SurfaceShieldMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const { browser, machine } = await (shields ??= build())
    return (isSessionlessPath(ctx.request.url()) ? machine : browser).handle(ctx, next)
  }
}

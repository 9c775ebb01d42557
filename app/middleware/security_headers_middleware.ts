import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { securityHeaders } from '#services/security_headers'

/**
 * Puts the security headers on every response, before routing: set on the Node response,
 * they survive a 404 of an unknown path and files served by the static middleware.
 */
export default class SecurityHeadersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const response = ctx.response.response
    for (const [name, value] of Object.entries(securityHeaders())) response.setHeader(name, value)
    return next()
  }
}

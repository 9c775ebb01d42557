import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { DASHBOARD_API_HEADERS, isDashboardApiPath } from '#services/admin/security_headers'

/**
 * Server middleware, so it also covers answers that never reach a route (404, body parser
 * errors, 401 from the session check): every answer of the dashboard API carries
 * DASHBOARD_API_HEADERS. Checked on the path the router matches, and again on the matched
 * route in case the path was spelled differently.
 */
export default class DashboardApiHeadersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const onPath = isDashboardApiPath(ctx.request.url())
    if (onPath) this.apply(ctx)
    const output = await next()
    if (!onPath && ctx.route && isDashboardApiPath(ctx.route.pattern)) this.apply(ctx)
    return output
  }

  protected apply(ctx: HttpContext) {
    for (const [name, value] of Object.entries(DASHBOARD_API_HEADERS)) ctx.response.header(name, value)
  }
}

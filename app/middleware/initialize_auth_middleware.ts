import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import InitializeAuthMiddleware from '@adonisjs/auth/initialize_auth_middleware'
import { isSessionlessPath } from '#config/surfaces'

const initialize = new InitializeAuthMiddleware()

/**
 * The session authenticator (`ctx.auth`) for browser surfaces only. The machine APIs and /health
 * carry no session to authenticate, and initializing it also built a template renderer per request
 * (to share `auth` with views), which read the components folder from disk each time.
 */
export default class BrowserAuthMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    if (isSessionlessPath(ctx.request.url())) return next()
    return initialize.handle(ctx, next)
  }
}

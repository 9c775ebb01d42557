import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { readRequestBody } from '#middleware/body_parser_middleware'

/**
 * Webhook receivers authenticate with a signature over the body, so on these paths (machine paths:
 * no session, no CSRF) the body is read first, within the same size limits and byte budget.
 */
export default class WebhookBodyMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    return readRequestBody(ctx, next)
  }
}

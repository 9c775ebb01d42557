import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { readRequestBody } from '#middleware/body_parser_middleware'
import { McpPrincipalResolver, type McpPrincipal } from '#services/mcp/mcp_principal'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    mcpPrincipal: McpPrincipal
  }
}

/**
 * Authentication of /mcp (API key or OAuth access token, see McpPrincipalResolver). The principal
 * also names the rate-limit budget ApiRateLimitMiddleware counts next: an API key's is the one it
 * has on the REST API. As on the REST API, the body is read only once the credentials passed.
 */
@inject()
export default class McpAuthMiddleware {
  constructor(protected principals: McpPrincipalResolver) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const principal = await this.principals.resolve(ctx)
    ctx.mcpPrincipal = principal
    ctx.rateLimitSubject = principal.rateLimitSubject
    if (principal.apiKey) ctx.apiKey = principal.apiKey
    return readRequestBody(ctx, next)
  }
}

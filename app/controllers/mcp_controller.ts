import type { HttpContext } from '@adonisjs/core/http'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { McpServerFactory } from '#services/mcp/mcp_server_factory'
import UnsupportedMediaTypeException from '#exceptions/unsupported_media_type_exception'

/**
 * `/mcp`, Streamable HTTP, stateless: every request is served by a fresh McpServer (the SDK's
 * per-request factory), so any web process can answer any request. The SDK negotiates protocol
 * 2026-07-28 (per-request envelope, `server/discover`) and serves 2025-era clients through its
 * stateless fallback (`initialize` per request; GET and DELETE, the 2025 session operations,
 * answer 405). Credentials and the rate limit were checked by the route's middleware, and the body
 * was read there within the body limits: the SDK gets it parsed from the raw text (the framework's
 * parsed body turns empty strings into null).
 */
export default class McpController {
  async handle(ctx: HttpContext) {
    const { request, response } = ctx
    let parsedBody: unknown
    if (request.method() === 'POST') {
      if (!request.is(['application/json'])) {
        throw new UnsupportedMediaTypeException('An MCP request body must be application/json.')
      }
      const raw = request.raw()
      parsedBody = raw ? JSON.parse(raw) : undefined
    }

    const factory = new McpServerFactory(ctx)
    const handler = createMcpHandler(() => factory.build(), {
      onerror: (error) => ctx.logger.warn({ err: error }, 'mcp request rejected'),
    })
    // The SDK writes the answer to the Node response itself: headers set so far (rate limit,
    // security headers) go with it.
    for (const [name, value] of Object.entries(response.getHeaders())) {
      if (value !== undefined) response.response.setHeader(name, value)
    }
    try {
      await toNodeHandler(handler, {
        onerror: (error) => ctx.logger.error({ err: error }, 'mcp request failed'),
      })(request.request, response.response, parsedBody)
    } finally {
      await handler.close()
    }
  }
}

import { defineConfig } from '@adonisjs/cors'
import { isOAuthEndpointPath } from '#config/surfaces'

/**
 * Browser-based MCP clients (the MCP Inspector's web UI, in-browser agents) discover the OAuth
 * server and register, exchange and revoke from their own origin; these answers carry no cookies.
 */
const openToAnyOrigin = (path: string) => path.startsWith('/.well-known/oauth-') || isOAuthEndpointPath(path)

/** The APIs are called server-to-server; browsers only use the same-origin admin UI (and the OAuth endpoints above). */
const corsConfig = defineConfig({
  enabled: true,
  origin: (_origin, ctx) => (openToAnyOrigin(ctx.request.url()) ? '*' : []),
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
  credentials: false,
  maxAge: 90,
})

export default corsConfig

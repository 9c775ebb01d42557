import { defineConfig } from '@adonisjs/cors'
import env from '#start/env'
import { isOAuthEndpointPath } from '#config/surfaces'

/**
 * Browser-based MCP clients (the MCP Inspector's web UI, in-browser agents) discover the OAuth
 * server and register, exchange and revoke from their own origin; these answers carry no cookies.
 */
const openToAnyOrigin = (path: string) => path.startsWith('/.well-known/oauth-') || isOAuthEndpointPath(path)

/** CORS_ORIGINS: the browser origins allowed on the analytics API (comma list; none by default). */
export function corsOrigins(): string[] {
  return (env.get('CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '')
}

/** Paths a CORS_ORIGINS origin may call: the analytics API and its OpenAPI document. */
const analyticsApiPath = (path: string) => path === '/api/v1' || path.startsWith('/api/v1/') || path === '/schema/openapi.json'

/**
 * The APIs are called server-to-server; browsers use the same-origin admin UI, the OAuth
 * endpoints above (any origin) and, for the origins in CORS_ORIGINS, the analytics API. Keys travel
 * in headers, never cookies, so credentials stay off. A refused preflight is a 204 without
 * Access-Control-Allow-Origin (the browser then blocks the call).
 */
const corsConfig = defineConfig({
  enabled: true,
  origin: (_origin, ctx) => {
    const path = ctx.request.url()
    if (openToAnyOrigin(path)) return '*'
    return analyticsApiPath(path) ? corsOrigins() : []
  },
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: [
    'ETag',
    'Link',
    'Location',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'Retry-After',
    'Content-Disposition',
  ],
  credentials: false,
  maxAge: 90,
})

export default corsConfig

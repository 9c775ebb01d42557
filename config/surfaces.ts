import env from '#start/env'

/*
|--------------------------------------------------------------------------
| HTTP surfaces
|--------------------------------------------------------------------------
|
| Path prefixes of the three API surfaces. The exception handler picks the
| problem+json contract by prefix, and CSRF is skipped on the header-
| authenticated machine APIs (analytics and operations).
|
*/
const normalize = (prefix: string) => `/${prefix.replace(/^\/+|\/+$/g, '')}`

export const apiPrefix = '/api/v1'
export const opsPrefix = normalize(env.get('OPS_PREFIX', '/ops'))
export const dashboardPrefix = normalize(env.get('DASHBOARD_PREFIX', '/coolify'))
export const dashboardApiPrefix = `${dashboardPrefix}/api`
/** Signature-authenticated receivers of provider webhooks (`/webhooks/polar`). */
export const webhookPrefix = '/webhooks'
/** The MCP endpoint for AI assistants (API key or OAuth bearer token, Streamable HTTP). */
export const mcpPath = '/mcp'

const startsWithSegment = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`)

/**
 * The OAuth authorization server's machine endpoints (registration, token, revocation): the
 * client authenticates in the request body or header, so no session and no CSRF, and the body is
 * read at once. The authorization endpoint (`/oauth/authorize`) is an admin UI page instead.
 */
export const OAUTH_ENDPOINT_PATHS = ['/oauth/register', '/oauth/token', '/oauth/revoke']

export function isOAuthEndpointPath(path: string) {
  return OAUTH_ENDPOINT_PATHS.includes(path.replace(/\/+$/, ''))
}

/**
 * Analytics API (`/api/...`), operations API (`OPS_PREFIX`), webhook receivers, the MCP
 * endpoint, discovery documents (`/.well-known/...`) or the OAuth endpoints: header, signature or
 * client auth, no cookies, no CSRF; the body is read by the route's auth middleware (on the OAuth
 * endpoints at once, since the client's credentials may be in it).
 */
export function isMachineApiPath(path: string) {
  return (
    startsWithSegment(path, '/api') ||
    startsWithSegment(path, opsPrefix) ||
    startsWithSegment(path, webhookPrefix) ||
    startsWithSegment(path, mcpPath) ||
    startsWithSegment(path, '/.well-known') ||
    isOAuthEndpointPath(path)
  )
}

/**
 * Paths that never carry a session or a CSRF cookie: the machine APIs, the public `/health`
 * probe (polled by load balancers and monitors, which keep no cookies) and the API documentation
 * under `/schema` (public pages that post nothing).
 */
export function isSessionlessPath(path: string) {
  return path === '/health' || startsWithSegment(path, '/schema') || isMachineApiPath(path)
}

/** Every path whose errors are rendered as RFC 9457 problem+json. */
export function isProblemJsonPath(path: string) {
  return (
    isMachineApiPath(path) ||
    startsWithSegment(path, dashboardApiPrefix) ||
    startsWithSegment(path, '/schema') ||
    path === '/health'
  )
}

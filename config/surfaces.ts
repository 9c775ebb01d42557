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
 * Analytics API (`/api/...`), operations API (`OPS_PREFIX`), webhook receivers or the MCP
 * endpoint: header or signature auth, no cookies, no CSRF; the body is read by the route's auth
 * middleware.
 */
export function isMachineApiPath(path: string) {
  return (
    startsWithSegment(path, '/api') ||
    startsWithSegment(path, opsPrefix) ||
    startsWithSegment(path, webhookPrefix) ||
    startsWithSegment(path, mcpPath)
  )
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

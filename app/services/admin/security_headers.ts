import { dashboardApiPrefix, dashboardPrefix } from '#config/surfaces'

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

/** The dashboard's JSON API (`DASHBOARD_PREFIX/api/...`), ops proxy included. */
export function isDashboardApiPath(path: string) {
  return startsWithSegment(path, dashboardApiPrefix)
}

/**
 * Headers of every dashboard API answer, errors included: even if a body ever came back as
 * markup (a proxied app answering HTML), the browser must neither sniff it into a page nor run
 * anything in it. `sandbox` gives such a document an opaque origin, so it cannot read the
 * admin's cookies or call the API with them.
 */
export const DASHBOARD_API_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
}

/** The OAuth consent page (authorization endpoint): an admin UI page outside `/admin`. */
export const OAUTH_AUTHORIZE_PATH = '/oauth/authorize'

/** HTML pages of the admin UI (`/admin/...`, the OAuth consent page and the dashboard pages, not its JSON API). */
export function isAdminPagePath(path: string) {
  if (startsWithSegment(path, dashboardApiPrefix)) return false
  return (
    startsWithSegment(path, '/admin') ||
    startsWithSegment(path, dashboardPrefix) ||
    startsWithSegment(path, OAUTH_AUTHORIZE_PATH)
  )
}

/**
 * Headers of every admin page: a strict CSP (scripts and styles from this
 * origin or carrying the request's nonce; no inline code, no framing, no
 * plugins, forms only to this origin), no MIME sniffing, no referrer leaks.
 * In development and tests the Vite dev server injects component styles,
 * which carry the nonce through the `csp-nonce` meta tag, and may open its
 * HMR socket; a built bundle (`npm start`) needs neither.
 */
export function adminPageHeaders(nonce: string, viteDevServer = false): Record<string, string> {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // The Vite dev server (`node ace serve`, tests) pushes updates over its own socket.
    viteDevServer ? "connect-src 'self' ws://localhost:* ws://127.0.0.1:*" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]
  return {
    'Content-Security-Policy': directives.join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  }
}

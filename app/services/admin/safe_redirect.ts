import { dashboardApiPrefix, dashboardPrefix } from '#config/surfaces'
import { OAUTH_AUTHORIZE_PATH } from '#services/admin/security_headers'

export const ADMIN_HOME = '/admin'

const startsWithSegment = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)

/**
 * The `next` target after login, or the admin home. Only same-origin paths
 * of the admin UI are accepted: no scheme, no `//host`, no backslashes or
 * control characters, no dashboard JSON route, nothing outside the UI (the OAuth consent page
 * `/oauth/authorize` is part of it).
 */
export function safeNext(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2000) return ADMIN_HOME
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return ADMIN_HOME
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(candidate)) return ADMIN_HOME
  let parsed: URL
  try {
    parsed = new URL(candidate, 'http://admin.invalid')
  } catch {
    return ADMIN_HOME
  }
  if (parsed.origin !== 'http://admin.invalid') return ADMIN_HOME
  const path = parsed.pathname
  if (startsWithSegment(path, dashboardApiPrefix)) return ADMIN_HOME
  if (path.startsWith('/admin/login') || path.startsWith('/admin/logout') || path.startsWith('/admin/setup')) {
    return ADMIN_HOME
  }
  // The OAuth consent page: a connector's authorization request resumes after login.
  const isConsent = path === OAUTH_AUTHORIZE_PATH
  if (!startsWithSegment(path, '/admin') && !startsWithSegment(path, dashboardPrefix) && !isConsent) return ADMIN_HOME
  return `${path}${parsed.search}`
}

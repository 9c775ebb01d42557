import { OAUTH_SCOPES, type OAuthScope } from '#config/oauth'

/** Space-separated scopes (RFC 6749 §3.3) as a list without duplicates or empty entries. */
export function parseScopes(value: string | null | undefined): string[] {
  return [...new Set((value ?? '').split(' ').filter(Boolean))]
}

/** True for a scope this server grants. */
export function isKnownScope(scope: string): scope is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(scope)
}

/**
 * A resource indicator (RFC 8707) in comparable form: an absolute http(s) URI without
 * fragment, scheme and host lower-cased, no trailing slash on the path; null when it is not one.
 */
export function normalizeResource(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (url.hash || url.username || url.password) return null
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.protocol}//${url.host}${path}${url.search}`
}

/** True when both name the same resource (`https://host/mcp` and `https://HOST/mcp/`). */
export function sameResource(a: string, b: string): boolean {
  const left = normalizeResource(a)
  return left !== null && left === normalizeResource(b)
}

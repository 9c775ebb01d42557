import env from '#start/env'

/*
|--------------------------------------------------------------------------
| OAuth 2.1 authorization server (AI connectors)
|--------------------------------------------------------------------------
|
| HRVault is its own authorization server for the MCP endpoint: the issuer
| is the public base URL (APP_URL, else the listen address) and every token
| is for one resource, `<issuer>/mcp`. Lifetimes are in seconds.
|
*/

/** The scopes a client may be granted: read health data and analytics, trigger a sync. */
export const OAUTH_SCOPES = ['health:read', 'sync'] as const
export type OAuthScope = (typeof OAUTH_SCOPES)[number]

/** Token endpoint client authentication: public clients (PKCE only) or a secret via Basic or the body. */
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const

export const oauthLifetimes = {
  /** An authorization code is exchanged by the client right after the redirect. */
  codeSeconds: 5 * 60,
  accessTokenSeconds: 60 * 60,
  /** Each rotation issues a new refresh token with a fresh lifetime (a sliding 30 days of disuse). */
  refreshTokenSeconds: 30 * 24 * 60 * 60,
}

/** Dynamic client registration per address (shared counters, like every limit). */
export const registrationLimit = { requests: 20, window: '1 hour' }

/** The issuer: APP_URL (or http://HOST:PORT) without a trailing slash. */
export function oauthIssuer(): string {
  const base = env.get('APP_URL') ?? `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`
  return base.replace(/\/+$/, '')
}

/** The protected resource every token is bound to (RFC 8707): the MCP endpoint. */
export function mcpResource(): string {
  return `${oauthIssuer()}/mcp`
}

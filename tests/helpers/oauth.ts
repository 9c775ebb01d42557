import { createHash, randomBytes } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import { OAuthTokenService } from '#services/oauth/oauth_token_service'
import { limiterFor } from '#services/rate_limit_service'
import { registrationLimit } from '#config/oauth'
import { AdminBrowser, baseUrl } from '#tests/functional/admin/helpers'

/** The redirect URI a claude.ai-style connector registers. */
export const CONNECTOR_REDIRECT = 'https://claude.ai/api/mcp/auth_callback'

/** A PKCE pair: a 43-character verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export interface JsonResponse {
  status: number
  headers: Headers
  body: any
}

async function answer(response: Response): Promise<JsonResponse> {
  const text = await response.text()
  let body: any = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {}
  return { status: response.status, headers: response.headers, body }
}

/** POST /oauth/register with a JSON body (a public connector unless `metadata` says otherwise). */
export async function registerClient(metadata: Record<string, unknown> = {}) {
  const response = await fetch(`${baseUrl()}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
    body: JSON.stringify({
      client_name: 'Claude',
      redirect_uris: [CONNECTOR_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  })
  return answer(response)
}

/** A form POST to the token or revocation endpoint, optionally with extra headers (Basic auth). */
export async function postForm(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept': 'application/json', ...headers },
    body: new URLSearchParams(form).toString(),
  })
  return answer(response)
}

/** GET a JSON document (discovery). */
export async function getJson(path: string) {
  return answer(await fetch(`${baseUrl()}${path}`, { headers: { Accept: 'application/json' } }))
}

/** The authorization request URL (path and query) of a client. */
export function authorizePath(params: Record<string, string | undefined>) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][])
  return `/oauth/authorize?${query.toString()}`
}

/** A standard authorization request of a public client with PKCE S256 for the MCP resource. */
export function authorizationRequest(clientId: string, challenge: string, extra: Record<string, string | undefined> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CONNECTOR_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(12).toString('base64url'),
    scope: 'health:read sync',
    resource: `${baseUrl()}/mcp`,
    ...extra,
  }
}

/**
 * Posts the consent page's decision as the page does (the request echoed, CSRF header from the
 * cookie); returns the response (a 302 to the client's redirect URI on success).
 */
export async function decide(
  browser: AdminBrowser,
  request: Record<string, string | null>,
  decision: 'approve' | 'deny',
  choice: { userId?: string; scopes?: string[] } = {}
) {
  const form: Record<string, string> = {}
  for (const [name, value] of Object.entries(request)) if (value !== null) form[name] = value
  form.decision = decision
  if (choice.userId) form.user_id = choice.userId
  for (const [index, scope] of (choice.scopes ?? []).entries()) form[`scopes[${index}]`] = scope
  return browser.post('/oauth/authorize', form)
}

/** The query parameters of a redirect's Location. */
export function redirectParams(location: string | null) {
  if (!location) throw new Error('no Location header')
  const url = new URL(location)
  return { url, params: Object.fromEntries(url.searchParams) }
}

/**
 * Registration (a public connector unless `metadata` says otherwise), consent approved for `userId`
 * with `scopes`, and the code in the redirect; nothing exchanged yet.
 */
export async function approvedCode(
  browser: AdminBrowser,
  userId: string,
  scopes: string[] = ['health:read'],
  metadata: Record<string, unknown> = {}
) {
  const registration = (await registerClient(metadata)).body
  const clientId = registration.client_id as string
  const { verifier, challenge } = pkce()
  const request = authorizationRequest(clientId, challenge, { scope: scopes.join(' ') })
  const consent = await browser.visit(authorizePath(request))
  const approved = await decide(browser, consent.page!.props.request, 'approve', { userId, scopes })
  const { params } = redirectParams(approved.location)
  return { registration, clientId, verifier, code: params.code, state: request.state }
}

/** The authorization-code grant of a public client, with its PKCE verifier and the connector's redirect URI. */
export function exchangeCode(clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) {
  return postForm('/oauth/token', {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: CONNECTOR_REDIRECT,
    client_id: clientId,
    ...extra,
  })
}

/** The refresh-token grant of a public client. */
export function refreshTokens(clientId: string, refreshToken: string, extra: Record<string, string> = {}) {
  return postForm('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra })
}

/** The identity behind an access token, or null (what the MCP endpoint checks). */
export async function verifyAccessToken(token: string) {
  return (await app.container.make(OAuthTokenService)).verifyAccessToken(token)
}

/**
 * The whole connector flow for a logged-in admin browser: registration, consent for `userId`
 * with `scopes`, code exchange with PKCE. Returns the client and the token answer.
 */
export async function connectOAuthClient(browser: AdminBrowser, userId: string, scopes: string[] = ['health:read', 'sync']) {
  const { clientId, code, verifier } = await approvedCode(browser, userId, scopes)
  const tokens = await exchangeCode(clientId, code, verifier, { resource: `${baseUrl()}/mcp` })
  return { clientId, tokens: tokens.body as { access_token: string; refresh_token: string; expires_in: number; scope: string } }
}

/** Clears the registration counter of the loopback address (shared with Redis across tests). */
export async function resetRegistrationLimit() {
  const bucket = limiterFor(registrationLimit)
  await bucket.delete('oauth_register:ip:127.0.0.1')
  bucket.deleteInMemoryBlockedKeys()
}

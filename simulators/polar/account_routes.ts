import { randomBytes } from 'node:crypto'
import { polarUserIdFor } from '#simulators/polar/profile'
import { polarError, type SimRequest, type SimResponse } from '#simulators/polar/routes'
import type { SimState } from '#simulators/polar/state'

const CODE_TTL_MS = 10 * 60_000

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function html(status: number, title: string, content: string): SimResponse {
  return {
    status,
    contentType: 'text/html; charset=utf-8',
    raw: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
button,a.button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}</style></head>
<body><h1>${escapeHtml(title)}</h1>${content}</body></html>`,
  }
}

/**
 * `GET /oauth2/authorization`: Polar Flow's consent page. Shows the requesting client and a form
 * whose "Authorize" button leads to `/oauth2/authorization/decision`, which redirects to
 * `redirect_uri?code=…&state=…` (or `error=access_denied` for "Deny").
 */
export function authorizePage(state: SimState, req: SimRequest): SimResponse {
  const q = req.query
  if (q.get('response_type') !== 'code' || !q.get('client_id')) {
    return html(400, 'Invalid authorization request', '<p>response_type=code and client_id are required.</p>')
  }
  const clientId = q.get('client_id')!
  const clients = state.options.clients
  if (clients && !(clientId in clients)) return html(400, 'Unknown client', '<p>The client_id is not registered.</p>')
  state.authorizeSequence++
  const login = q.get('login_hint') ?? `flow-user-${state.authorizeSequence}`
  const hidden = ['client_id', 'redirect_uri', 'state', 'scope']
    .filter((k) => q.get(k) !== null)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q.get(k)!)}">`)
    .join('')
  return html(
    200,
    'Polar Flow: authorize access',
    `<p>The application <strong id="client">${escapeHtml(clientId)}</strong> asks to read your Polar data
(scope <code>${escapeHtml(q.get('scope') ?? 'accesslink.read_all')}</code>).</p>
<form method="get" action="/oauth2/authorization/decision">${hidden}
<p><label>Polar account <input name="login" id="login" value="${escapeHtml(login)}"></label></p>
<button type="submit" name="decision" value="allow" id="authorize">Authorize</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`
  )
}

/** `GET /oauth2/authorization/decision`: issues a 10-minute code and redirects back. */
export function authorizeDecision(state: SimState, req: SimRequest): SimResponse {
  const q = req.query
  const clientId = q.get('client_id')
  if (!clientId) return html(400, 'Invalid authorization request', '<p>client_id is required.</p>')
  const redirectUri = q.get('redirect_uri') ?? state.options.defaultRedirectUri ?? null
  const stateParam = q.get('state')
  const target = redirectUri ? new URL(redirectUri) : null
  if (q.get('decision') !== 'allow') {
    if (!target) return html(200, 'Access denied', '<p>You denied access.</p>')
    target.searchParams.set('error', 'access_denied')
    if (stateParam !== null) target.searchParams.set('state', stateParam)
    return { status: 302, headers: { Location: target.toString() } }
  }
  const code = randomBytes(12).toString('hex')
  state.codes.set(code, {
    clientId,
    redirectUri: q.get('redirect_uri'),
    polarUserId: polarUserIdFor(q.get('login') || `flow-user-${state.authorizeSequence}`),
    expiresAt: state.now() + CODE_TTL_MS,
    used: false,
  })
  if (!target) return html(200, 'Authorization code', `<p>Your code: <code id="code">${code}</code></p>`)
  target.searchParams.set('code', code)
  if (stateParam !== null) target.searchParams.set('state', stateParam)
  return { status: 302, headers: { Location: target.toString() } }
}

/**
 * `POST /v2/oauth2/token`: HTTP Basic client auth + form body. 401 `invalid_client`, 400
 * `invalid_grant` (unknown, used or expired code, or another redirect URI), else the token answer.
 */
export function tokenEndpoint(state: SimState, req: SimRequest): SimResponse {
  if (req.method !== 'POST') return { status: 405, body: { error: 'invalid_request' } }
  if (req.auth.kind !== 'basic' || !req.auth.id || !req.auth.secret) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication (HTTP Basic) required' } }
  }
  const clients = state.options.clients
  if (clients && clients[req.auth.id] !== req.auth.secret) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'Bad client credentials' } }
  }
  const form = new URLSearchParams(req.body)
  if (form.get('grant_type') !== 'authorization_code') {
    return { status: 400, body: { error: 'unsupported_grant_type' } }
  }
  const code = state.codes.get(form.get('code') ?? '')
  const redirect = form.get('redirect_uri')
  if (
    !code ||
    code.used ||
    code.expiresAt < state.now() ||
    code.clientId !== req.auth.id ||
    (code.redirectUri !== null && code.redirectUri !== redirect)
  ) {
    return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid, used or expired authorization code' } }
  }
  code.used = true
  const token = `sim_${code.polarUserId}_${randomBytes(16).toString('hex')}`
  state.tokens.set(token, code.polarUserId)
  state.tokenClients.set(token, req.auth.id)
  return {
    status: 200,
    body: { access_token: token, token_type: 'bearer', expires_in: 31_535_999, x_user_id: code.polarUserId },
  }
}

function userObject(state: SimState, polarUserId: number) {
  const reg = state.registered.get(polarUserId)!
  return {
    'polar-user-id': polarUserId,
    'member-id': reg.memberId,
    'registration-date': reg.registeredAt,
    'first-name': 'Sim',
    'last-name': `User${polarUserId % 1000}`,
    'birthdate': `19${70 + (polarUserId % 30)}-0${1 + (polarUserId % 9)}-1${polarUserId % 10}`,
    'gender': polarUserId % 2 === 0 ? 'FEMALE' : 'MALE',
    'weight': 55 + (polarUserId % 35),
    'height': 158 + (polarUserId % 35),
  }
}

/** `POST /v3/users`, `GET /v3/users/{id}`, `DELETE /v3/users/{id}` for the Bearer token's user. */
export function usersRoute(state: SimState, token: string, req: SimRequest): SimResponse {
  const polarUserId = state.polarUserIdOf(token)
  const path = req.path.replace(/\/+$/, '')
  if (path === '/v3/users') {
    if (req.method !== 'POST') return polarError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed')
    let memberId: unknown
    try {
      memberId = (JSON.parse(req.body || '{}') as Record<string, unknown>)['member-id']
    } catch {
      return polarError(400, 'BAD_REQUEST', 'Malformed JSON body')
    }
    if (typeof memberId !== 'string' || memberId === '') return polarError(400, 'BAD_REQUEST', 'member-id is required')
    const owner = state.memberIds.get(memberId)
    if (state.registered.has(polarUserId) || (owner !== undefined && owner !== polarUserId)) {
      return polarError(409, 'CONFLICT', 'User already registered to partner or duplicated member-id')
    }
    state.registered.set(polarUserId, {
      memberId,
      registeredAt: new Date().toISOString().replace('Z', '').slice(0, 23) + 'Z',
      clientId: state.clientOf({ kind: 'bearer', token }),
    })
    state.memberIds.set(memberId, polarUserId)
    return { status: 200, body: userObject(state, polarUserId) }
  }
  const id = Number(path.split('/').pop())
  if (id !== polarUserId) return polarError(403, 'FORBIDDEN', 'Token does not belong to this user')
  if (req.method === 'GET') {
    return state.registered.has(id) ? { status: 200, body: userObject(state, id) } : { status: 204 }
  }
  if (req.method === 'DELETE') {
    const reg = state.registered.get(id)
    if (!reg) return polarError(404, 'NOT_FOUND', 'User not found')
    // De-registration forgets the user: registration, member id, webhook coverage; every token is revoked.
    state.registered.delete(id)
    state.memberIds.delete(reg.memberId)
    state.knownUsers.delete(id)
    state.revoked.add(token)
    for (const [t, owner] of state.tokens) if (owner === id) state.revoked.add(t)
    return { status: 204 }
  }
  return polarError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed')
}

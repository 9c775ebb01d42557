import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import OauthAuthorizationCode from '#models/oauth_authorization_code'
import OauthGrant from '#models/oauth_grant'
import OauthToken from '#models/oauth_token'
import { createUser } from '#tests/helpers/fixtures'
import { AdminBrowser, ADMIN_EMAIL, ADMIN_PASSWORD, baseUrl, createAdmin, loggedInAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import {
  CONNECTOR_REDIRECT,
  approvedCode,
  authorizationRequest,
  authorizePath,
  decide,
  exchangeCode,
  getJson,
  pkce,
  postForm,
  redirectParams,
  refreshTokens,
  registerClient,
  resetRegistrationLimit,
  verifyAccessToken,
} from '#tests/helpers/oauth'

test.group('OAuth | connector flow', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    await resetRegistrationLimit()
    return rollback
  })

  test('discovery → registration → login and consent → token → refresh → revoke', async ({ assert }) => {
    const base = baseUrl()
    const user = await createUser('oauth_reader')
    await createUser('someone_else')
    await createAdmin()

    // Discovery: the resource points at its authorization server, which names its endpoints.
    const resource = await getJson('/.well-known/oauth-protected-resource/mcp')
    assert.equal(resource.status, 200)
    assert.deepInclude(resource.body, {
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: ['health:read', 'sync'],
      bearer_methods_supported: ['header'],
    })
    assert.deepEqual((await getJson('/.well-known/oauth-protected-resource')).body, resource.body)
    const metadata = (await getJson('/.well-known/oauth-authorization-server')).body
    assert.equal(metadata.issuer, base)
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256'])
    assert.deepEqual(metadata.response_types_supported, ['code'])
    assert.deepEqual(metadata.grant_types_supported, ['authorization_code', 'refresh_token'])
    assert.includeMembers(metadata.token_endpoint_auth_methods_supported, ['none', 'client_secret_post', 'client_secret_basic'])

    // Registration (RFC 7591): a public client gets an id and no secret.
    const registration = await registerClient()
    assert.equal(registration.status, 201)
    assert.equal(registration.headers.get('cache-control'), 'no-store')
    const clientId = registration.body.client_id as string
    assert.match(clientId, /^hvc_/)
    assert.isNumber(registration.body.client_id_issued_at)
    assert.notProperty(registration.body, 'client_secret')
    assert.equal(registration.body.token_endpoint_auth_method, 'none')
    assert.deepEqual(registration.body.redirect_uris, [CONNECTOR_REDIRECT])

    // Authorization: logged out → admin login → back to the consent page.
    const { verifier, challenge } = pkce()
    const request = authorizationRequest(clientId, challenge, { scope: 'health:read' })
    const browser = new AdminBrowser()
    const loggedOut = await browser.get(authorizePath(request))
    assert.equal(loggedOut.status, 302)
    const login = new URL(loggedOut.location!, base)
    assert.equal(login.pathname, '/admin/login')
    const next = login.searchParams.get('next')!
    assert.equal(next, authorizePath(request))
    const loginPage = await browser.visit(`${login.pathname}${login.search}`)
    assert.equal(loginPage.page!.props.next, next)
    const signedIn = await browser.post('/admin/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, next })
    assert.equal(signedIn.location, next)

    const consent = await browser.visit(next)
    assert.equal(consent.status, 200)
    assert.equal(consent.page!.component, 'oauth/consent')
    assert.equal(consent.page!.props.client.name, 'Claude')
    assert.equal(consent.page!.props.client.redirect_host, 'claude.ai')
    assert.includeMembers(consent.page!.props.users, ['oauth_reader', 'someone_else'])
    assert.deepEqual(
      consent.page!.props.scopes.map((s: any) => [s.value, s.checked]),
      [['health:read', true], ['sync', false]]
    )
    assert.match(consent.headers.get('content-security-policy') ?? '', /script-src 'self' 'nonce-/)

    const approved = await decide(browser, consent.page!.props.request, 'approve', { userId: 'oauth_reader', scopes: ['health:read'] })
    assert.equal(approved.status, 302)
    const { url, params } = redirectParams(approved.location)
    assert.equal(`${url.origin}${url.pathname}`, CONNECTOR_REDIRECT)
    assert.equal(params.state, request.state)
    assert.equal(params.iss, base)
    assert.match(params.code, /^hvz_/)
    const stored = await OauthAuthorizationCode.query().orderBy('id', 'desc').firstOrFail()
    assert.notEqual(stored.codeHash, params.code)
    assert.lengthOf(stored.codeHash, 64)

    // Token: the code and the PKCE verifier give a user-bound pair.
    const issued = await exchangeCode(clientId, params.code, verifier, { resource: `${base}/mcp` })
    assert.equal(issued.status, 200)
    assert.equal(issued.headers.get('cache-control'), 'no-store')
    assert.deepInclude(issued.body, { token_type: 'Bearer', expires_in: 3600, scope: 'health:read' })
    assert.match(issued.body.access_token, /^hva_/)
    assert.match(issued.body.refresh_token, /^hvr_/)
    const hashes = (await OauthToken.all()).map((t) => t.tokenHash)
    assert.notInclude(hashes, issued.body.access_token)

    const identity = await verifyAccessToken(issued.body.access_token)
    assert.deepInclude(identity!, {
      userId: user.id,
      externalUserId: 'oauth_reader',
      scopes: ['health:read'],
      clientId,
      clientName: 'Claude',
      resource: `${base}/mcp`,
    })
    assert.closeTo(identity!.expiresAt, Math.floor(Date.now() / 1000) + 3600, 60)
    const grant = await OauthGrant.findOrFail(identity!.grantId)
    assert.isNotNull(grant.lastUsedAt)

    // The connected app is listed in the admin UI.
    const apps = await browser.visit('/admin/connected-apps')
    assert.deepInclude(apps.page!.props.apps[0], { client_name: 'Claude', user_id: 'oauth_reader', scopes: ['health:read'], redirect_host: 'claude.ai' })

    // Refresh: rotated; the old refresh token is spent.
    const refreshed = await refreshTokens(clientId, issued.body.refresh_token)
    assert.equal(refreshed.status, 200)
    assert.notEqual(refreshed.body.refresh_token, issued.body.refresh_token)
    assert.notEqual(refreshed.body.access_token, issued.body.access_token)
    assert.equal((await verifyAccessToken(refreshed.body.access_token))!.externalUserId, 'oauth_reader')

    // Revocation of the refresh token ends the grant: every token stops working.
    const revoked = await postForm('/oauth/revoke', { token: refreshed.body.refresh_token, client_id: clientId })
    assert.equal(revoked.status, 200)
    assert.isNull(await verifyAccessToken(refreshed.body.access_token))
    assert.isNull(await verifyAccessToken(issued.body.access_token))
    const after = await refreshTokens(clientId, refreshed.body.refresh_token)
    assert.equal(after.status, 400)
    assert.equal(after.body.error, 'invalid_grant')
    assert.lengthOf((await browser.visit('/admin/connected-apps')).page!.props.apps, 0)
  })

  test('a rotated refresh token presented again revokes the whole grant', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const { clientId, code, verifier } = await approvedCode(browser, user.externalId)
    const first = (await exchangeCode(clientId, code, verifier)).body
    const second = (await refreshTokens(clientId, first.refresh_token)).body
    assert.isNotNull(await verifyAccessToken(second.access_token))

    const reused = await refreshTokens(clientId, first.refresh_token)
    assert.equal(reused.status, 400)
    assert.equal(reused.body.error, 'invalid_grant')
    assert.isNull(await verifyAccessToken(second.access_token))
    assert.equal((await refreshTokens(clientId, second.refresh_token)).body.error, 'invalid_grant')
    const grant = await OauthGrant.query().orderBy('id', 'desc').firstOrFail()
    assert.isNotNull(grant.revokedAt)
  })

  test('an authorization code works once; a replay revokes what it produced', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const { clientId, code, verifier } = await approvedCode(browser, user.externalId)
    const first = await exchangeCode(clientId, code, verifier)
    assert.equal(first.status, 200)
    const replay = await exchangeCode(clientId, code, verifier)
    assert.equal(replay.status, 400)
    assert.equal(replay.body.error, 'invalid_grant')
    assert.isNull(await verifyAccessToken(first.body.access_token))
  })

  test('a wrong code_verifier is refused and leaves the code usable', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const { clientId, code, verifier } = await approvedCode(browser, user.externalId)
    const wrong = await exchangeCode(clientId, code, pkce().verifier)
    assert.equal(wrong.status, 400)
    assert.equal(wrong.body.error, 'invalid_grant')
    assert.match(wrong.body.error_description, /code_verifier/)
    const missing = await postForm('/oauth/token', { grant_type: 'authorization_code', code, client_id: clientId })
    assert.equal(missing.body.error, 'invalid_request')
    assert.equal((await exchangeCode(clientId, code, verifier)).status, 200)
  })

  test('the code is bound to its redirect_uri, resource and client, and expires', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const { clientId, code, verifier } = await approvedCode(browser, user.externalId)

    const otherRedirect = await exchangeCode(clientId, code, verifier, { redirect_uri: 'https://claude.ai/other' })
    assert.equal(otherRedirect.body.error, 'invalid_grant')
    assert.match(otherRedirect.body.error_description, /redirect_uri/)
    const otherResource = await exchangeCode(clientId, code, verifier, { resource: 'https://elsewhere.example/mcp' })
    assert.equal(otherResource.body.error, 'invalid_target')
    const other = (await registerClient({ client_name: 'Other' })).body.client_id
    const otherClient = await exchangeCode(other, code, verifier)
    assert.equal(otherClient.body.error, 'invalid_grant')

    await OauthAuthorizationCode.query().update({ expiresAt: '2000-01-01 00:00:00' })
    const expired = await exchangeCode(clientId, code, verifier)
    assert.equal(expired.body.error, 'invalid_grant')
    assert.match(expired.body.error_description, /expired/)
  })

  test('plain PKCE, a missing challenge or another resource go back to the client as errors', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const clientId = (await registerClient()).body.client_id
    const { challenge } = pkce()
    const cases: Array<[Record<string, string | undefined>, string, RegExp]> = [
      [{ code_challenge_method: 'plain' }, 'invalid_request', /S256/],
      [{ code_challenge_method: undefined }, 'invalid_request', /S256/],
      [{ code_challenge: undefined }, 'invalid_request', /code_challenge/],
      [{ response_type: 'token' }, 'unsupported_response_type', /code/],
      [{ scope: 'health:write' }, 'invalid_scope', /health:write/],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target', /mcp/],
    ]
    for (const [extra, error, description] of cases) {
      const request = authorizationRequest(clientId, challenge, extra)
      const response = await browser.get(authorizePath(request))
      assert.equal(response.status, 302, JSON.stringify(extra))
      const { url, params } = redirectParams(response.location)
      assert.equal(`${url.origin}${url.pathname}`, CONNECTOR_REDIRECT)
      assert.equal(params.error, error)
      assert.match(params.error_description, description)
      assert.equal(params.state, request.state)
    }
    assert.lengthOf(await OauthAuthorizationCode.all(), 0)
  })

  test('an unknown client or an unregistered redirect_uri is an error page, never a redirect', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const clientId = (await registerClient()).body.client_id
    const { challenge } = pkce()
    for (const extra of [
      { client_id: 'hvc_unknown' },
      { client_id: undefined },
      { redirect_uri: 'https://attacker.example/callback' },
      { redirect_uri: 'https://claude.ai/api/mcp/auth_callback/../evil' },
    ]) {
      const response = await browser.get(authorizePath(authorizationRequest(clientId, challenge, extra)))
      assert.equal(response.status, 400, JSON.stringify(extra))
      assert.isNull(response.location)
      assert.equal(response.page!.component, 'oauth/error')
    }
    const duplicated = await browser.get(`${authorizePath(authorizationRequest(clientId, challenge))}&client_id=${clientId}`)
    assert.equal(duplicated.status, 400)
    assert.equal(duplicated.page!.component, 'oauth/error')
  })

  test('denying sends access_denied with the state', async ({ assert }) => {
    await createUser()
    const browser = await loggedInAdmin()
    const clientId = (await registerClient()).body.client_id
    const request = authorizationRequest(clientId, pkce().challenge)
    const consent = await browser.visit(authorizePath(request))
    const denied = await decide(browser, consent.page!.props.request, 'deny')
    const { params } = redirectParams(denied.location)
    assert.deepInclude(params, { error: 'access_denied', state: request.state })
    assert.notProperty(params, 'code')
    assert.lengthOf(await OauthAuthorizationCode.all(), 0)
  })

  test('approving without a user or scope, or for an unknown user, issues nothing', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const clientId = (await registerClient()).body.client_id
    const consent = await browser.visit(authorizePath(authorizationRequest(clientId, pkce().challenge)))
    const request = consent.page!.props.request
    for (const choice of [{ scopes: ['health:read'] }, { userId: user.externalId }, { userId: 'nobody_here', scopes: ['health:read'] }, { userId: user.externalId, scopes: ['health:write'] }]) {
      const response = await decide(browser, request, 'approve', choice)
      assert.equal(response.status, 400, JSON.stringify(choice))
      assert.equal(response.page!.component, 'oauth/error')
      assert.isNull(response.location)
    }
    assert.lengthOf(await OauthAuthorizationCode.all(), 0)
  })

  test('the consent decision needs the CSRF token and an admin session', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const clientId = (await registerClient()).body.client_id
    const consent = await browser.visit(authorizePath(authorizationRequest(clientId, pkce().challenge)))
    const form = { ...consent.page!.props.request, decision: 'approve', user_id: user.externalId, 'scopes[0]': 'health:read' }
    // Without the CSRF header Shield refuses the post (back to the page, never to the client).
    const forged = await browser.post('/oauth/authorize', form, { xsrf: false })
    assert.notMatch(String(forged.location), /claude\.ai|code=/)
    // A logged-out visitor holding a valid CSRF token: refused by the session check.
    const visitor = new AdminBrowser()
    await visitor.get('/admin/login')
    const stranger = await visitor.post('/oauth/authorize', form)
    assert.equal(stranger.status, 302)
    assert.match(stranger.location!, /^\/admin\/login/)
    assert.lengthOf(await OauthAuthorizationCode.all(), 0)
  })

  test('the Connected apps page revokes a grant and its tokens', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const { clientId, code, verifier } = await approvedCode(browser, user.externalId, ['health:read', 'sync'])
    const tokens = (await exchangeCode(clientId, code, verifier)).body
    const page = await browser.visit('/admin/connected-apps')
    const app_ = page.page!.props.apps[0]
    assert.deepInclude(app_, { client_name: 'Claude', user_id: user.externalId, scopes: ['health:read', 'sync'] })

    await browser.request('DELETE', `/admin/connected-apps/${app_.id}`, { xsrf: false })
    assert.isNotNull(await verifyAccessToken(tokens.access_token))
    assert.lengthOf((await browser.visit('/admin/connected-apps')).page!.props.apps, 1)

    const revoked = await browser.request('DELETE', `/admin/connected-apps/${app_.id}`)
    assert.equal(revoked.status, 302)
    assert.isNull(await verifyAccessToken(tokens.access_token))
    assert.equal((await refreshTokens(clientId, tokens.refresh_token)).body.error, 'invalid_grant')
    assert.lengthOf((await browser.visit('/admin/connected-apps')).page!.props.apps, 0)
  })

  test('deleting the user deletes its grants and tokens', async ({ assert }) => {
    const user = await createUser()
    const browser = await loggedInAdmin()
    const { clientId, code, verifier } = await approvedCode(browser, user.externalId)
    const tokens = (await exchangeCode(clientId, code, verifier)).body
    await user.delete()
    assert.isNull(await verifyAccessToken(tokens.access_token))
    assert.lengthOf(await OauthGrant.all(), 0)
    assert.lengthOf(await OauthToken.all(), 0)
  })
})

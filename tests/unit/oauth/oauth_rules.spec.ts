import { test } from '@japa/runner'
import OauthClient from '#models/oauth_client'
import { isRegisteredRedirectUri, redirectUriProblem } from '#services/oauth/oauth_client_service'
import { normalizeResource, parseScopes, sameResource } from '#services/oauth/oauth_scopes'
import { s256Challenge, safeEqual } from '#services/oauth/oauth_secrets'

const clientWith = (uris: string[]) => {
  const client = new OauthClient()
  client.redirectUris = JSON.stringify(uris)
  return client
}

test.group('OAuth | rules', () => {
  test('S256 matches the RFC 7636 appendix B example', ({ assert }) => {
    assert.equal(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
    assert.isTrue(safeEqual('abc', 'abc'))
    assert.isFalse(safeEqual('abc', 'abcd'))
  })

  test('redirect URI {$self.uri} is {$self.verdict}')
    .with([
      { uri: 'https://claude.ai/api/mcp/auth_callback', verdict: 'allowed' },
      { uri: 'https://example.com/cb?tenant=1', verdict: 'allowed' },
      { uri: 'http://localhost:6274/oauth/callback', verdict: 'allowed' },
      { uri: 'http://127.0.0.1/cb', verdict: 'allowed' },
      { uri: 'http://[::1]:9000/cb', verdict: 'allowed' },
      { uri: 'http://example.com/cb', verdict: 'refused' },
      { uri: 'http://localhost.evil.example/cb', verdict: 'refused' },
      { uri: 'http://127.0.0.2/cb', verdict: 'refused' },
      { uri: 'ftp://example.com/cb', verdict: 'refused' },
      { uri: 'https://example.com/cb#x', verdict: 'refused' },
      { uri: 'https://a:b@example.com/cb', verdict: 'refused' },
      { uri: 'example.com/cb', verdict: 'refused' },
    ])
    .run(({ assert }, { uri, verdict }) => {
      assert.equal(redirectUriProblem(uri) === null ? 'allowed' : 'refused', verdict)
    })

  test('registered redirect URIs match exactly, loopback http on any port', ({ assert }) => {
    const client = clientWith(['https://claude.ai/cb', 'http://127.0.0.1:8000/callback', 'http://localhost/cb'])
    assert.isTrue(isRegisteredRedirectUri(client, 'https://claude.ai/cb'))
    assert.isFalse(isRegisteredRedirectUri(client, 'https://claude.ai/cb/'))
    assert.isFalse(isRegisteredRedirectUri(client, 'https://claude.ai:8443/cb'))
    assert.isFalse(isRegisteredRedirectUri(client, 'https://claude.ai/cb?x=1'))
    assert.isTrue(isRegisteredRedirectUri(client, 'http://127.0.0.1:51234/callback'))
    assert.isTrue(isRegisteredRedirectUri(client, 'http://localhost:3000/cb'))
    assert.isFalse(isRegisteredRedirectUri(client, 'http://127.0.0.1:51234/other'))
    assert.isFalse(isRegisteredRedirectUri(client, 'http://localhost:3000/cb#frag'))
    assert.isFalse(isRegisteredRedirectUri(client, 'https://127.0.0.1:8000/callback'))
  })

  test('resources compare without case, fragment or trailing slash differences', ({ assert }) => {
    assert.isTrue(sameResource('https://HRVault.example.com/mcp/', 'https://hrvault.example.com/mcp'))
    assert.isFalse(sameResource('https://hrvault.example.com/mcp2', 'https://hrvault.example.com/mcp'))
    assert.isFalse(sameResource('https://other.example.com/mcp', 'https://hrvault.example.com/mcp'))
    assert.isNull(normalizeResource('urn:hrvault'))
    assert.isNull(normalizeResource('https://hrvault.example.com/mcp#x'))
  })

  test('scopes split on spaces without duplicates', ({ assert }) => {
    assert.deepEqual(parseScopes('health:read  sync health:read'), ['health:read', 'sync'])
    assert.deepEqual(parseScopes(''), [])
    assert.deepEqual(parseScopes(undefined), [])
  })
})

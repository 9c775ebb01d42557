import { test } from '@japa/runner'
import {
  OpsTokenRegistry,
  defaultTokenName,
  extractBearerToken,
  principalHasScope,
} from '#services/ops/ops_tokens'

test.group('Ops tokens | configuration', () => {
  test('parses OPS_TOKENS scope lists and OPS_TOKEN as a wildcard token', ({ assert }) => {
    const { registry, warnings } = OpsTokenRegistry.parse(
      JSON.stringify({ 'reader-token-123456': ['health:read', 'stats:read'] }),
      'admin-token-abcdef'
    )
    assert.deepEqual(warnings, [])
    assert.equal(registry.size, 2)
    assert.deepEqual(registry.authenticate('reader-token-123456')?.scopes, ['health:read', 'stats:read'])
    assert.deepEqual(registry.authenticate('admin-token-abcdef')?.scopes, ['*'])
  })

  test('accepts an object entry with a label used as the audit name', ({ assert }) => {
    const { registry } = OpsTokenRegistry.parse(
      JSON.stringify({ 'ci-token-0123456789': { scopes: ['queue:retry'], name: 'ci deploy' } }),
      undefined
    )
    assert.deepEqual(registry.authenticate('ci-token-0123456789'), { name: 'ci deploy', scopes: ['queue:retry'] })
  })

  test('an empty scope list is a valid token without rights', ({ assert }) => {
    const { registry } = OpsTokenRegistry.parse(JSON.stringify({ 'no-scope-token-xyz': [] }), '')
    const principal = registry.authenticate('no-scope-token-xyz')
    assert.isNotNull(principal)
    assert.isFalse(principalHasScope(principal!, 'health:read'))
  })

  test('invalid JSON loads nothing from OPS_TOKENS and says why', ({ assert }) => {
    const { registry, warnings } = OpsTokenRegistry.parse('{not json', 'solo-token-123456')
    assert.equal(registry.size, 1)
    assert.match(warnings[0], /not valid JSON/)
  })

  test('skips entries that are not scope lists, empty tokens and duplicates', ({ assert }) => {
    const { registry, warnings } = OpsTokenRegistry.parse(
      JSON.stringify({ '': ['*'], 'bad-entry-123456': 'health:read', 'dupe-token-123456': ['*'] }),
      'dupe-token-123456'
    )
    assert.equal(registry.size, 1)
    assert.lengthOf(warnings, 3)
    assert.isNull(registry.authenticate(''))
  })

  test('unset configuration grants nothing', ({ assert }) => {
    const { registry } = OpsTokenRegistry.parse(undefined, undefined)
    assert.equal(registry.size, 0)
    assert.isNull(registry.authenticate('anything'))
  })

  test('warns about unknown scopes but keeps the token', ({ assert }) => {
    const { registry, warnings } = OpsTokenRegistry.parse(JSON.stringify({ 'token-abcdefghijk': ['logs:write'] }), null)
    assert.equal(registry.size, 1)
    assert.match(warnings[0], /unknown scopes: logs:write/)
  })
})

test.group('Ops tokens | authentication', () => {
  test('unknown tokens, prefixes and extensions of a token do not match', ({ assert }) => {
    const { registry } = OpsTokenRegistry.parse(JSON.stringify({ 'exact-token-value': ['*'] }), null)
    assert.isNull(registry.authenticate('exact-token-valu'))
    assert.isNull(registry.authenticate('exact-token-value2'))
    assert.isNull(registry.authenticate('EXACT-TOKEN-VALUE'))
    assert.isNotNull(registry.authenticate('exact-token-value'))
  })

  test('wildcard grants every scope, others exactly their own', ({ assert }) => {
    assert.isTrue(principalHasScope({ name: 'a', scopes: ['*'] }, 'console:execute'))
    assert.isTrue(principalHasScope({ name: 'a', scopes: ['logs:read'] }, 'logs:read'))
    assert.isFalse(principalHasScope({ name: 'a', scopes: ['queue:read'] }, 'queue:retry'))
    assert.isFalse(principalHasScope({ name: 'a', scopes: ['console:list'] }, 'console:execute'))
  })

  test('reads bearer credentials case-insensitively and rejects other schemes', ({ assert }) => {
    assert.equal(extractBearerToken('Bearer abc'), 'abc')
    assert.equal(extractBearerToken('bearer   abc '), 'abc')
    assert.isNull(extractBearerToken('Basic abc'))
    assert.isNull(extractBearerToken('Bearer'))
    assert.isNull(extractBearerToken('Bearer a b'))
    assert.isNull(extractBearerToken(undefined))
  })

  test('audit names never reveal more than a prefix of the token', ({ assert }) => {
    assert.equal(defaultTokenName('abcdefghijklmnopqrstuv'), 'abcdef…')
    assert.equal(defaultTokenName('abcdef'), 'ab…')
    assert.equal(defaultTokenName('ab'), '…')
  })
})

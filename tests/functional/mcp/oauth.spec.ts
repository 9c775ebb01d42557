import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { createUser } from '#tests/helpers/fixtures'
import { loggedInAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { connectOAuthClient, postForm, resetRegistrationLimit } from '#tests/helpers/oauth'
import { LEGACY, MODERN, baseUrl, connect, recordToolCalls } from './helpers.js'

const textOf = (result: any) => (result.content as Array<{ text: string }>).map((c) => c.text).join('\n')

/** A raw tools/call on 2025-11-25 (stateless: no session needed) with a bearer token. */
const rawCall = (token: string) =>
  fetch(`${baseUrl()}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': LEGACY,
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_analytics_status', arguments: {} } }),
  })

test.group('MCP | OAuth connectors', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    await resetRegistrationLimit()
    return rollback
  })

  test('a connected app reads its user only, within its scopes; refreshed tokens work, revoked ones get the 401 challenge', async ({ assert, cleanup }) => {
    const calls = recordToolCalls()
    cleanup(calls)
    const reader = await createUser('oauth_mcp_reader')
    const other = await createUser('oauth_mcp_other')
    await db.table('nightly_recharges').insert({ user_id: other.id, date: '2026-01-01', hrv_avg: 44, created_at: new Date().toISOString() })
    const browser = await loggedInAdmin()
    const { clientId, tokens } = await connectOAuthClient(browser, reader.externalId, ['health:read'])

    for (const era of [MODERN, LEGACY] as const) {
      const client = await connect({ Authorization: `Bearer ${tokens.access_token}` }, era)
      try {
        const own = await client.callTool({ name: 'get_analytics_status', arguments: {} })
        assert.notOk(own.isError, textOf(own))
        assert.equal((own.structuredContent as any).user_id, reader.externalId)

        const foreign = await client.callTool({ name: 'get_recovery', arguments: { user_id: other.externalId } })
        assert.isTrue(foreign.isError)
        assert.isUndefined(foreign.structuredContent)
        assert.include(textOf(foreign), 'E_FORBIDDEN_USER')

        const sync = await client.callTool({ name: 'trigger_sync', arguments: {} })
        assert.isTrue(sync.isError)
        assert.include(textOf(sync), 'Missing scope "sync"')
      } finally {
        await client.close()
      }
    }
    // The audit names the connected app and its client id.
    assert.deepInclude(calls.entries[0], { tool: 'get_analytics_status', user: reader.externalId, credential: `oauth:${clientId}`, client: 'Claude', outcome: 'ok' })

    // Refresh: the new access token is accepted.
    const refreshed = await postForm('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })
    assert.equal(refreshed.status, 200)
    assert.equal((await rawCall(refreshed.body.access_token)).status, 200)

    // Revocation ends the grant: every token of it is a 401 with the challenge.
    const revoked = await postForm('/oauth/revoke', { token: refreshed.body.refresh_token, client_id: clientId })
    assert.equal(revoked.status, 200)
    for (const token of [tokens.access_token, refreshed.body.access_token]) {
      const response = await rawCall(token)
      assert.equal(response.status, 401)
      assert.equal(
        response.headers.get('www-authenticate'),
        `Bearer resource_metadata="${baseUrl()}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`
      )
    }
    await assert.rejects(() => connect({ Authorization: `Bearer ${refreshed.body.access_token}` }))
  })

  test('a token with the sync scope passes the scope check; the sync needs a Polar connection and at most SYNC_DAYS', async ({ assert }) => {
    const user = await createUser('oauth_mcp_syncer')
    const browser = await loggedInAdmin()
    const { tokens } = await connectOAuthClient(browser, user.externalId, ['health:read', 'sync'])
    const client = await connect({ Authorization: `Bearer ${tokens.access_token}` })
    try {
      // The scope passes; without a stored Polar connection the sync itself is refused.
      const sync = await client.callTool({ name: 'trigger_sync', arguments: {} })
      assert.isTrue(sync.isError)
      assert.include(textOf(sync), 'No Polar connection is stored for user oauth_mcp_syncer')
      // A user-bound credential may not exceed SYNC_DAYS.
      const long = await client.callTool({ name: 'trigger_sync', arguments: { days: 200 } })
      assert.include(textOf(long), 'days must not be greater than')
    } finally {
      await client.close()
    }
  })
})

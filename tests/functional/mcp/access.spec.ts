import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { ApiKeyService } from '#services/auth/api_key_service'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { withRequestBudget } from '#tests/helpers/fuzz/rate_limits'
import { LEGACY, MODERN, baseUrl, connect, fakeOAuthTokens, recordToolCalls } from './helpers.js'

const TODAY = '2026-03-15'

/** polar-flow-server's ten tools, then HRVault's five. */
const TOOL_NAMES = [
  'get_sleep',
  'get_recovery',
  'get_activity',
  'get_exercises',
  'get_biosensing',
  'get_baselines',
  'get_patterns',
  'get_health_insights',
  'get_today',
  'trigger_sync',
  'get_sync_status',
  'get_anomalies',
  'check_metric',
  'get_heart_rate',
  'get_cardio_load',
  'get_analytics_status',
]

/** Tools with `days`, their REST maximum, and get_biosensing's metric. */
const DAYS_LIMITS: Array<[string, number, string]> = [
  ['get_sleep', 365, ''],
  ['get_recovery', 365, ''],
  ['get_activity', 365, ''],
  ['get_exercises', 365, ''],
  ['get_heart_rate', 365, ''],
  ['get_cardio_load', 365, ''],
  ['get_biosensing', 365, 'spo2'],
  ['get_biosensing', 365, 'ecg'],
  ['get_biosensing', 365, 'body_temperature'],
  ['get_biosensing', 365, 'skin_temperature'],
  ['get_biosensing', 365, 'heart_rate'],
  ['get_biosensing', 30, 'alertness'],
  ['get_biosensing', 30, 'bedtime'],
]

const textOf = (result: any) => (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join('\n')

/** A raw JSON-RPC POST to /mcp (what a client sends first), with extra headers. */
const post = (headers: Record<string, string>) =>
  fetch(`${baseUrl()}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  })

test.group('MCP | endpoint, authentication and tools', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))

  test('no or invalid credentials: 401 with the protected-resource metadata challenge', async ({ assert }) => {
    await userWithApiKey()
    const challenge = `Bearer resource_metadata="${baseUrl()}/.well-known/oauth-protected-resource/mcp"`
    const attempts: Array<Record<string, string>> = [
      {},
      { 'X-API-Key': 'hrv_not-a-key' },
      { Authorization: 'Bearer not-a-token' },
      { Authorization: 'Bearer hva_not-a-token' },
      { Authorization: 'Basic abc' },
    ]
    for (const headers of attempts) {
      const response = await post(headers)
      assert.equal(response.status, 401, JSON.stringify(headers))
      // A presented but invalid credential is also named as such (RFC 6750).
      const presented = Boolean(headers['X-API-Key'] || headers.Authorization?.startsWith('Bearer '))
      assert.equal(response.headers.get('www-authenticate'), presented ? `${challenge}, error="invalid_token"` : challenge)
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/)
      assert.equal(((await response.json()) as { code: string }).code, 'E_MCP_UNAUTHORIZED')
    }
    // The SDK client sees the 401 at connect.
    await assert.rejects(() => connect({}, MODERN))
    await assert.rejects(() => connect({}, LEGACY))
  })

  test('a revoked key is refused', async ({ assert }) => {
    const { apiKey } = await userWithApiKey()
    const keys = await app.container.make(ApiKeyService)
    await keys.revoke(apiKey.slice(0, 12))
    assert.equal((await post({ 'X-API-Key': apiKey })).status, 401)
    assert.equal((await post({ Authorization: `Bearer ${apiKey}` })).status, 401)
  })

  test('both protocol revisions negotiate ({$self}), with X-API-Key or the key as bearer token')
    .with([MODERN, LEGACY] as const)
    .run(async ({ assert }, era) => {
      const { apiKey } = await userWithApiKey()
      const ways: Array<Record<string, string>> = [{ 'X-API-Key': apiKey }, { Authorization: `Bearer ${apiKey}` }]
      for (const headers of ways) {
        const client = await connect(headers, era)
        try {
          assert.equal(client.getNegotiatedProtocolVersion(), era)
          assert.equal(client.getServerVersion()?.name, 'hrvault')
          assert.match(client.getInstructions() ?? '', /Start with get_health_insights/)
        } finally {
          await client.close()
        }
      }
    })

  test('tools/list ({$self}): the 16 tools, each with a description and an object input schema')
    .with([MODERN, LEGACY] as const)
    .run(async ({ assert }, era) => {
      const client = await connect({ 'X-API-Key': await serviceApiKey() }, era)
      try {
        const { tools } = await client.listTools()
        assert.isAtLeast(tools.length, 16)
        assert.sameMembers(
          tools.map((t) => t.name),
          TOOL_NAMES
        )
        for (const tool of tools) {
          assert.isAbove(tool.description?.length ?? 0, 40, tool.name)
          assert.equal(tool.inputSchema.type, 'object', tool.name)
          const properties = tool.inputSchema.properties as Record<string, any>
          assert.property(properties, 'user_id', tool.name)
          assert.isString(properties.user_id.description)
          for (const [name, property] of Object.entries(properties)) assert.isString(property.description, `${tool.name}.${name}`)
          assert.notInclude((tool.inputSchema.required as string[] | undefined) ?? [], 'user_id')
        }
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
        const days = (name: string) => (byName[name].inputSchema.properties as any).days
        assert.deepInclude(days('get_sleep'), { type: 'integer', minimum: 1, maximum: 365 })
        assert.deepEqual((byName.get_biosensing.inputSchema.properties as any).metric.enum, [
          'spo2',
          'ecg',
          'body_temperature',
          'skin_temperature',
          'heart_rate',
          'alertness',
          'bedtime',
        ])
        assert.isTrue(byName.get_health_insights.annotations?.readOnlyHint)
        assert.isFalse(byName.trigger_sync.annotations?.readOnlyHint)

        const { prompts } = await client.listPrompts()
        assert.sameMembers(
          prompts.map((p) => p.name),
          ['weekly_recovery_review', 'why_was_my_hrv_low']
        )
        const prompt = await client.getPrompt({ name: 'why_was_my_hrv_low', arguments: { date: '2026-03-14' } })
        const text = (prompt.messages[0].content as { text: string }).text
        for (const tool of ['get_recovery', 'check_metric', 'get_sleep', 'get_exercises', 'get_cardio_load', 'get_patterns']) {
          assert.include(text, tool)
        }
        assert.include(text, '2026-03-14')
        const review = await client.getPrompt({ name: 'weekly_recovery_review', arguments: {} })
        assert.include((review.messages[0].content as { text: string }).text, 'get_health_insights')
      } finally {
        await client.close()
      }
    })

  test('GET and DELETE /mcp are 405 (stateless: no stream, no session); a non-JSON POST is 415', async ({ assert }) => {
    const key = await serviceApiKey()
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${baseUrl()}/mcp`, { method, headers: { 'X-API-Key': key, Accept: 'text/event-stream' } })
      assert.equal(response.status, 405, method)
      assert.equal(response.headers.get('allow'), 'POST')
    }
    const form = await fetch(`${baseUrl()}/mcp`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'text/plain' },
      body: 'hello',
    })
    assert.equal(form.status, 415)
    // Unauthenticated, GET is a 401 like every method: the challenge comes first.
    assert.equal((await fetch(`${baseUrl()}/mcp`)).status, 401)
  })

  test('a user-scoped key reads its own user without user_id and gets a tool error, no data, for another user ({$self})')
    .with([MODERN, LEGACY] as const)
    .run(async ({ assert }, era) => {
      const { user, apiKey } = await userWithApiKey()
      const other = await createUser()
      await db.table('sleep_records').insert({ user_id: other.id, date: TODAY, sleep_score: 77, created_at: new Date().toISOString() })
      await db.table('sleep_records').insert({ user_id: user.id, date: TODAY, sleep_score: 81, created_at: new Date().toISOString() })
      const client = await connect({ 'X-API-Key': apiKey }, era)
      try {
        const own = await client.callTool({ name: 'get_sleep', arguments: {} })
        assert.notOk(own.isError)
        const ownRecords = era === MODERN ? (own.structuredContent as any[]) : (own.structuredContent as any).result
        assert.deepEqual(
          ownRecords.map((r: any) => r.sleep_score),
          [81]
        )
        assert.include(textOf(own), `user ${user.externalId}`)

        for (const name of TOOL_NAMES) {
          const args: Record<string, unknown> = { user_id: other.externalId }
          if (name === 'get_biosensing') args.metric = 'spo2'
          if (name === 'check_metric') Object.assign(args, { metric_name: 'hrv_rmssd', value: 40 })
          const result = await client.callTool({ name, arguments: args })
          assert.isTrue(result.isError, name)
          assert.isUndefined(result.structuredContent, name)
          assert.lengthOf(result.content as unknown[], 1, name)
          // Only the refusal: no record, no value.
          assert.equal(
            textOf(result),
            `This credential is bound to user "${user.externalId}" and may not read user "${other.externalId}". Leave user_id out to read "${user.externalId}". (E_FORBIDDEN_USER)`,
            name
          )
        }
      } finally {
        await client.close()
      }
    })

  test('a service key must name the user; an unknown user, an invalid date or id is a tool error', async ({ assert }) => {
    const client = await connect({ 'X-API-Key': await serviceApiKey() })
    try {
      const missing = await client.callTool({ name: 'get_recovery', arguments: {} })
      assert.isTrue(missing.isError)
      assert.include(textOf(missing), 'user_id is required')

      const unknown = await client.callTool({ name: 'get_health_insights', arguments: { user_id: 'nobody_here' } })
      assert.isTrue(unknown.isError)
      assert.include(textOf(unknown), 'User "nobody_here" was not found')
      assert.include(textOf(unknown), 'E_UNKNOWN_USER')

      const user = await createUser()
      for (const [name, args] of [
        ['get_sleep', { date: '2026-02-30' }],
        ['get_sleep', { date: TODAY }],
        ['get_exercises', { exercise_id: 0 }],
        ['get_exercises', { exercise_id: 99999 }],
        ['get_baselines', { metric_name: 'vo2max' }],
        ['get_baselines', { metric_name: 'hrv_rmssd' }],
        ['get_sleep', { user_id: 'bad*id' }],
        ['check_metric', { metric_name: 'hrv_rmssd', value: 'high' }],
      ] as Array<[string, Record<string, unknown>]>) {
        const result = await client.callTool({ name, arguments: { user_id: user.externalId, ...args } })
        assert.isTrue(result.isError, `${name} ${JSON.stringify(args)}`)
        assert.isUndefined(result.structuredContent)
      }
    } finally {
      await client.close()
    }
  })

  test('days: the REST maximum passes, 0 and the maximum + 1 are tool errors naming days ({0} {2} {1})')
    .with(DAYS_LIMITS)
    .run(async ({ assert }, [name, max, metric]) => {
      const extra = metric ? { metric } : {}
      const user = await createUser()
      const client = await connect({ 'X-API-Key': await serviceApiKey() })
      try {
        const call = (days: number) => client.callTool({ name, arguments: { user_id: user.externalId, days, ...extra } })
        const ok = await call(max)
        assert.notOk(ok.isError, textOf(ok))
        assert.include(textOf(ok), `(${max} days)`)
        for (const days of [0, max + 1]) {
          const result = await call(days)
          assert.isTrue(result.isError, `days=${days}`)
          assert.include(textOf(result), 'days')
        }
      } finally {
        await client.close()
      }
    })

  test('OAuth access tokens: bound to one user, scopes enforced per tool, the missing scope named', async ({ assert, cleanup }) => {
    const owner = await createUser()
    const other = await createUser()
    cleanup(
      fakeOAuthTokens({
        'read-only-token': { userId: owner.id, externalUserId: owner.externalId, scopes: ['health:read'], clientId: 'c1', clientName: 'Claude' },
        'sync-only-token': { userId: owner.id, externalUserId: owner.externalId, scopes: ['sync'], clientId: 'c2', clientName: 'Cursor' },
      })
    )
    const reader = await connect({ Authorization: 'Bearer read-only-token' })
    try {
      const own = await reader.callTool({ name: 'get_analytics_status', arguments: {} })
      assert.notOk(own.isError, textOf(own))
      assert.equal((own.structuredContent as any).user_id, owner.externalId)

      const foreign = await reader.callTool({ name: 'get_analytics_status', arguments: { user_id: other.externalId } })
      assert.isTrue(foreign.isError)
      assert.isUndefined(foreign.structuredContent)

      const sync = await reader.callTool({ name: 'trigger_sync', arguments: {} })
      assert.isTrue(sync.isError)
      assert.include(textOf(sync), 'Missing scope "sync"')
      assert.include(textOf(sync), 'E_MISSING_SCOPE')
    } finally {
      await reader.close()
    }

    const syncer = await connect({ Authorization: 'Bearer sync-only-token' }, LEGACY)
    try {
      const read = await syncer.callTool({ name: 'get_sleep', arguments: {} })
      assert.isTrue(read.isError)
      assert.include(textOf(read), 'Missing scope "health:read"')
      // The scope passes; the user has no Polar connection, which is the error now.
      const sync = await syncer.callTool({ name: 'trigger_sync', arguments: {} })
      assert.isTrue(sync.isError)
      assert.include(textOf(sync), 'No Polar connection is stored')
    } finally {
      await syncer.close()
    }
    assert.equal((await post({ Authorization: 'Bearer unknown-token' })).status, 401)
  })

  test('every tool call is logged with tool, user, credential, client, duration and outcome, never a value', async ({ assert, cleanup }) => {
    const calls = recordToolCalls()
    cleanup(calls)
    const { user, apiKey } = await userWithApiKey()
    await db.table('nightly_recharges').insert({ user_id: user.id, date: TODAY, hrv_avg: 61.5, created_at: new Date().toISOString() })
    const client = await connect({ 'X-API-Key': apiKey })
    try {
      await client.callTool({ name: 'get_recovery', arguments: { days: 3 } })
      await client.callTool({ name: 'get_recovery', arguments: { user_id: 'someone_else' } })
      await client.callTool({ name: 'check_metric', arguments: { metric_name: 'hrv_rmssd', value: 61.5 } })
    } finally {
      await client.close()
    }
    const keyId = (await db.from('api_keys').where('name', 'test key').orderBy('id', 'desc').first()).id
    assert.lengthOf(calls.entries, 3)
    const [ok, forbidden, noBaseline] = calls.entries
    assert.deepInclude(ok, { tool: 'get_recovery', user: user.externalId, credential: `key:${keyId}`, client: 'test key', outcome: 'ok' })
    assert.isNumber(ok.duration_ms)
    assert.deepInclude(forbidden, { tool: 'get_recovery', user: null, outcome: 'error', error_code: 'E_FORBIDDEN_USER' })
    assert.deepInclude(noBaseline, { tool: 'check_metric', user: user.externalId, outcome: 'error' })
    assert.notInclude(JSON.stringify(calls.entries), '61.5')
  })

  test('MCP requests count against the key’s REST budget; past it /mcp answers 429 with Retry-After', async ({ assert, cleanup }) => {
    withRequestBudget(6, cleanup)
    const { user, apiKey } = await userWithApiKey()
    const remaining = async () => {
      const response = await fetch(`${baseUrl()}/api/v1/users/${user.externalId}/sleep`, { headers: { 'X-API-Key': apiKey } })
      await response.arrayBuffer()
      return Number(response.headers.get('ratelimit-remaining'))
    }
    assert.equal(await remaining(), 5)

    let mcpRequests = 0
    const transportFetch: typeof fetch = (input, init) => {
      mcpRequests++
      return fetch(input, init)
    }
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    const client = new Client({ name: 'counting', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl()}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } }, fetch: transportFetch })
    )
    const answer = await client.callTool({ name: 'get_sleep', arguments: {} })
    assert.notOk(answer.isError)
    await client.close()
    assert.isAtLeast(mcpRequests, 2)
    assert.equal(await remaining(), 5 - mcpRequests - 1)

    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await post({ 'X-API-Key': apiKey })).status)
    assert.deepEqual(statuses, [200, 200, 429])
    const refused = await post({ 'X-API-Key': apiKey })
    assert.equal(refused.status, 429)
    assert.isNotNull(refused.headers.get('retry-after'))
    assert.equal(refused.headers.get('ratelimit-remaining'), '0')
  })
})

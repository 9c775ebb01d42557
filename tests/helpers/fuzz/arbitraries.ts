import fc from 'fast-check'
import { fillPattern, isMutation, type RouteInfo } from '#tests/helpers/fuzz/routes'
import type { RawRequest } from '#tests/helpers/fuzz/http'

/*
|--------------------------------------------------------------------------
| Hostile input generators
|--------------------------------------------------------------------------
|
| Every generated request targets one registered route (or a wrong method on
| it) and mixes realistic values (so validation passes and deeper code runs)
| with hostile ones: wrong types, huge and negative numbers, unicode and
| control characters, path traversal, oversized and malformed bodies,
| missing and duplicated headers.
|
*/

/** Credentials and known-good values the generator mixes in. */
export interface FuzzContext {
  routes: RouteInfo[]
  /** Per param name, values that pass validation and exist (users, uuids, ...). */
  validParams: Record<string, string[]>
  apiKeys: { service: string; scoped: string; scopedUser: string; revoked: string }
  opsTokens: { wildcard: string; limited: string }
  /** Cookie header of a logged-in admin session, and its CSRF token. */
  session: () => { cookie: string; xsrf: string | null }
  /** Body limit of the JSON parser, bytes. */
  bodyLimit: number
}

const HOSTILE_CONSTANTS = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '99999999999999999999999999999999',
  '-99999999999999999999',
  '0x1F',
  '1.5',
  '1,5',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31',
  '2026-1-1',
  '2026-03-15T00:00:00Z',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '....//....//etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%2e%2e%2f',
  '%c0%ae%c0%ae/',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\u202e\u0000\u0007\u001b[31m',
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  '"; select pg_sleep(5); --',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${jndi:ldap://127.0.0.1/a}',
  '😀👩‍👩‍👧‍👦',
  'ｕｓｅｒ',
  'İı',
  '\ud800',
  'a'.repeat(101),
  'a'.repeat(5000),
  'hrv_',
  'hrv_AAAAAAAA',
  'Bearer',
]

/** Any hostile string, or a realistic one. */
export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.bigInt(), fc.double()).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('a', 'x', 'é').chain((c) => fc.integer({ min: 100, max: 3000 }).map((n) => c.repeat(n))) }
  )

/** A value for a JSON body field: any JSON type, nested, hostile strings. */
const jsonValue = (): fc.Arbitrary<unknown> =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      hostileString(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileString(), tie('value'), { maxKeys: 4 })
    ),
  })).value

const BODY_KEYS = [
  'days', 'name', 'user_id', 'email', 'password', 'token', 'next', 'command', 'args', 'key', 'value', 'client_id',
  'client_secret', 'code', 'state', 'lines', 'force', 'domains', 'description', 'git_branch', 'image', 'is_preview',
  'is_build_time', 'ports_exposes', 'public_port', 'limits_memory', 'health_check_port', '__proto__', 'constructor',
]

const QUERY_KEYS = [
  'days', 'date', 'from', 'to', 'lines', 'level', 'search', 'page', 'per_page', 'take', 'skip', 'limit', 'force',
  'reveal', 'next', 'state', 'code', 'error', 'format', 'metric', 'file', '__proto__', 'days[]', 'days[a]',
]

/** Percent-encodes a value for a URL, or leaves it hostile (raw, broken escapes, raw slashes). */
const encodedSegment = (value: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(encodeSegment(value)) },
    { weight: 1, arbitrary: fc.constant(rawIfSendable(value)) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '..%2F..%2Fetc', '%252e%252e', '%C0%AE', '..', '.') }
  )

function encodeSegment(value: string) {
  try {
    return encodeURIComponent(value)
  } catch {
    // Lone surrogates cannot be encoded: send their UTF-8 replacement bytes escaped.
    return encodeURIComponent(value.toWellFormed())
  }
}

/** The value as raw bytes on the request line where Node lets it through (no space or controls). */
function rawIfSendable(value: string) {
  const latin1 = [...value].map((c) => (c.charCodeAt(0) <= 0xff ? c : '')).join('')
  return latin1.replace(/[\u0000-\u0020\u007f?#]/g, '') || 'x'
}

const paramValue = (ctx: FuzzContext, name: string): fc.Arbitrary<string> => {
  const valid = ctx.validParams[name] ?? []
  const hostile = hostileString().chain(encodedSegment)
  if (valid.length === 0) return hostile
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...valid).map(encodeSegment) }, { weight: 2, arbitrary: hostile })
}

const queryString = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: hostileString() }),
        fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom('1', '7', '30', '365', '366', '0', '-5', 'abc', '2026-03-10', 'true') },
          { weight: 3, arbitrary: hostileString() }
        )
      ),
      { maxLength: 5 }
    )
    .chain((pairs) =>
      fc.constant(pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&'))
    )

type Header = [string, string]

/** Header values Node lets through on the wire (latin1, no controls except tab). */
const headerValue = (): fc.Arbitrary<string> =>
  hostileString().map((v) => [...v].map((c) => (c.charCodeAt(0) <= 0xff ? c : '?')).join('').replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '').slice(0, 8000))

/** Credentials for the route's surface: none, garbage, valid, or duplicated. */
const authHeaders = (ctx: FuzzContext, route: RouteInfo, method: string): fc.Arbitrary<Header[]> => {
  if (route.surface === 'analytics') {
    return fc.oneof(
      fc.constant([] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.service]] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.service]] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.scoped]] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.revoked]] as Header[]),
      headerValue().map((v) => [['X-API-Key', v]] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.service], ['X-API-Key', ctx.apiKeys.scoped]] as Header[]),
      fc.constant([['x-api-key', ''], ['X-Api-Key', ctx.apiKeys.service]] as Header[])
    )
  }
  if (route.surface === 'ops') {
    return fc.oneof(
      fc.constant([] as Header[]),
      fc.constant([['Authorization', `Bearer ${ctx.opsTokens.wildcard}`]] as Header[]),
      fc.constant([['Authorization', `Bearer ${ctx.opsTokens.wildcard}`]] as Header[]),
      fc.constant([['Authorization', `Bearer ${ctx.opsTokens.limited}`]] as Header[]),
      fc.constant([['Authorization', `bearer  ${ctx.opsTokens.wildcard} `]] as Header[]),
      fc.constant([['Authorization', `Basic ${Buffer.from(`x:${ctx.opsTokens.wildcard}`).toString('base64')}`]] as Header[]),
      headerValue().map((v) => [['Authorization', `Bearer ${v}`]] as Header[]),
      fc.constant([['Authorization', `Bearer ${ctx.opsTokens.limited}`], ['Authorization', `Bearer ${ctx.opsTokens.wildcard}`]] as Header[])
    )
  }
  if (route.surface === 'mcp') {
    return fc.oneof(
      fc.constant([] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.service]] as Header[]),
      fc.constant([['Authorization', `Bearer ${ctx.apiKeys.service}`]] as Header[]),
      fc.constant([['X-API-Key', ctx.apiKeys.scoped]] as Header[]),
      fc.constant([['Authorization', `Bearer ${ctx.apiKeys.revoked}`]] as Header[]),
      headerValue().map((v) => [['Authorization', `Bearer hva_${v}`]] as Header[]),
      headerValue().map((v) => [['X-API-Key', v]] as Header[])
    )
  }
  if (route.surface === 'public') return fc.constant([])
  // Admin pages and the dashboard API: the session cookie, with or without the CSRF header.
  return fc
    .oneof(
      fc.constant('none' as const),
      fc.constant('session' as const),
      fc.constant('session' as const),
      fc.constant('session_no_csrf' as const),
      fc.constant('garbage' as const)
    )
    .chain((mode) =>
      headerValue().map((garbage): Header[] => {
        if (mode === 'none') return []
        if (mode === 'garbage') return [['Cookie', `hrvault-session=${garbage}`], ['X-XSRF-TOKEN', garbage]]
        const { cookie, xsrf } = ctx.session()
        const headers: Header[] = [['Cookie', cookie]]
        if (mode === 'session' && xsrf && isMutation(method)) headers.push(['X-XSRF-TOKEN', xsrf])
        return headers
      })
    )
}

const extraHeaders = (): fc.Arbitrary<Header[]> =>
  fc.array(
    fc.oneof(
      fc.constantFrom<Header>(
        ['Accept', 'application/json'],
        ['Accept', 'text/html'],
        ['Accept', '*/*'],
        ['Accept', 'text/csv'],
        ['Accept', 'application/xml;q=0.9, */*;q=0.1'],
        ['Accept-Encoding', 'gzip, br'],
        ['X-Inertia', 'true'],
        ['X-Requested-With', 'XMLHttpRequest'],
        ['X-Forwarded-For', '10.0.0.1, 127.0.0.1'],
        ['X-Forwarded-Proto', 'https'],
        ['X-Forwarded-Host', 'evil.example'],
        ['Origin', 'https://evil.example'],
        ['Referer', 'https://evil.example/'],
        ['Range', 'bytes=0-10'],
        ['If-None-Match', '*'],
        ['Cookie', 'XSRF-TOKEN=abc; hrvault-session=abc']
      ),
      headerValue().map((v): Header => ['X-Provider-Token', v]),
      headerValue().map((v): Header => ['Accept', v]),
      headerValue().map((v): Header => ['Accept-Language', v]),
      fc.constantFrom('X-Provider-Token', 'X-Trace', 'Cookie').chain((name) => headerValue().map((v): Header => [name, v]))
    ),
    { maxLength: 3 }
  )

type Body = { contentType: string | null; body: Buffer | string } | null

const bodyArb = (ctx: FuzzContext): fc.Arbitrary<Body> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    {
      weight: 5,
      arbitrary: fc
        .dictionary(fc.oneof(fc.constantFrom(...BODY_KEYS), hostileString()), jsonValue(), { maxKeys: 6 })
        .map((o): Body => ({ contentType: 'application/json', body: JSON.stringify(o) })),
    },
    {
      weight: 2,
      arbitrary: jsonValue().map((v): Body => ({ contentType: 'application/json', body: JSON.stringify(v) ?? 'null' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('{', '{"days":', '{"a":1,}', "{'a':1}", 'NaN', '[1,2', '{"__proto__":{"admin":true}}', '\u0000', '{"a":"\ud800"}', 'nul')
        .map((s): Body => ({ contentType: 'application/json', body: s })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 200, max: 5000 }).map((depth): Body => ({
        contentType: 'application/json',
        body: '['.repeat(depth) + ']'.repeat(depth),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain').map(
        (contentType): Body => ({
          contentType,
          body:
            contentType === 'application/json'
              ? JSON.stringify({ days: 'x'.repeat(ctx.bodyLimit + 1024) })
              : `a=${'x'.repeat(ctx.bodyLimit + 1024)}`,
        })
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...BODY_KEYS), hostileString()), hostileString()), { maxLength: 5 })
        .map((pairs): Body => ({
          contentType: 'application/x-www-form-urlencoded',
          body: pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&'),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(null, 'text/plain', 'application/octet-stream', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml'), fc.uint8Array({ maxLength: 200 }))
        .map(([contentType, bytes]): Body => ({ contentType, body: Buffer.from(bytes) })),
    }
  )

const MCP_METHODS = ['initialize', 'server/discover', 'tools/list', 'tools/call', 'prompts/list', 'prompts/get', 'ping', 'resources/list', 'subscriptions/listen', 'notifications/initialized']
const MCP_TOOLS = ['get_sleep', 'get_recovery', 'get_biosensing', 'get_health_insights', 'check_metric', 'trigger_sync', 'get_sync_status', 'nope']
const MCP_ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

/**
 * A request body and headers for /mcp: JSON-RPC messages of real methods and tools with hostile
 * params, mostly consistent 2025-era or 2026-07-28 requests (envelope and header agree), sometimes
 * not, batches, and now and then any hostile body.
 */
const mcpPartsArb = (ctx: FuzzContext): fc.Arbitrary<{ body: Body; headers: Header[] }> => {
  const user = fc.oneof(fc.constantFrom(...(ctx.validParams.user_id ?? ['nobody'])), hostileString())
  const args = fc.oneof(
    fc.record(
      { user_id: user, days: fc.oneof(fc.integer({ min: -5, max: 400 }), jsonValue()), metric: fc.oneof(fc.constant('spo2'), hostileString()) },
      { requiredKeys: [] }
    ),
    fc.dictionary(hostileString(), jsonValue(), { maxKeys: 4 }),
    jsonValue()
  )
  const params = fc.oneof(
    { weight: 4, arbitrary: fc.record({ name: fc.oneof(fc.constantFrom(...MCP_TOOLS), hostileString()), arguments: args }, { requiredKeys: ['name'] }) },
    {
      weight: 1,
      arbitrary: fc.record({
        protocolVersion: fc.constantFrom('2025-11-25', '2025-06-18', '1999-01-01'),
        capabilities: fc.constant({}),
        clientInfo: fc.constant({ name: 'fuzz', version: '1' }),
      }),
    },
    { weight: 1, arbitrary: jsonValue() }
  )
  const message = (modern: boolean) =>
    fc
      .record(
        {
          jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: jsonValue() }),
          id: fc.oneof({ weight: 6, arbitrary: fc.integer() }, { weight: 1, arbitrary: hostileString() }, { weight: 1, arbitrary: fc.constant(null) }),
          method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...MCP_METHODS) }, { weight: 1, arbitrary: hostileString() }),
          params,
        },
        { requiredKeys: ['jsonrpc', 'method'] }
      )
      .map(({ params: p, ...rest }) => {
        const object = p !== null && typeof p === 'object' && !Array.isArray(p)
        return { ...rest, ...(p === undefined ? {} : { params: modern && object ? { ...(p as object), _meta: MCP_ENVELOPE } : p }) }
      })
  const jsonRpc = fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 })).chain(([modern, noise]) =>
    fc.oneof({ weight: 5, arbitrary: message(modern) }, { weight: 1, arbitrary: fc.array(message(modern), { maxLength: 4 }) }).map((value) => {
      const headers: Header[] = noise === 0 ? [] : [['Accept', 'application/json, text/event-stream']]
      if (modern) headers.push(['MCP-Protocol-Version', noise === 1 ? '2025-11-25' : '2026-07-28'])
      else if (noise === 2) headers.push(['MCP-Protocol-Version', '2026-07-28'])
      // 2026-07-28 mirrors the method and the tool or prompt name in headers (when they fit in one).
      const single = Array.isArray(value) ? null : (value as { method?: unknown; params?: { name?: unknown } })
      const printable = (v: unknown): v is string => typeof v === 'string' && /^[\x20-\x7e]{1,200}$/.test(v)
      if (modern && noise !== 3 && single && printable(single.method)) {
        headers.push(['Mcp-Method', single.method])
        if (printable(single.params?.name)) headers.push(['Mcp-Name', single.params.name])
      }
      return { body: { contentType: 'application/json', body: JSON.stringify(value) } as Body, headers }
    })
  )
  return fc.oneof({ weight: 4, arbitrary: jsonRpc }, { weight: 1, arbitrary: bodyArb(ctx).map((body) => ({ body, headers: [] as Header[] })) })
}

export interface GeneratedRequest extends RawRequest {
  route: RouteInfo
  /** The method is not one the route accepts. */
  wrongMethod: boolean
  oversized: boolean
}

/** One request against one of the registered routes. */
export const requestArb = (ctx: FuzzContext): fc.Arbitrary<GeneratedRequest> =>
  fc.constantFrom(...ctx.routes).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          // /mcp: POST carries the protocol; GET and DELETE only answer 405.
          { weight: 9, arbitrary: route.surface === 'mcp' ? fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'DELETE') : fc.constantFrom(...route.methods) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') }
        ),
        params: fc.record(Object.fromEntries(route.params.map((p) => [p, paramValue(ctx, p)]))),
        query: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: queryString() }),
        extra: extraHeaders(),
        body: bodyArb(ctx),
        mcp: route.surface === 'mcp' ? mcpPartsArb(ctx) : fc.constant(null),
        dropContentType: fc.boolean(),
        duplicateContentType: fc.integer({ min: 0, max: 9 }),
      })
      .chain((parts) =>
        authHeaders(ctx, route, parts.method).map((auth): GeneratedRequest => {
          // /mcp: the JSON-RPC body and the headers that go with it.
          const generated = parts.mcp ? parts.mcp.body : parts.body
          const headers: Header[] = [...auth, ...(parts.mcp?.headers ?? []), ...parts.extra]
          const hasBody = generated !== null && parts.method !== 'GET' && parts.method !== 'HEAD'
          if (hasBody && generated!.contentType && !(parts.dropContentType && parts.duplicateContentType === 0)) {
            headers.push(['Content-Type', generated!.contentType])
            if (parts.duplicateContentType === 1) headers.push(['Content-Type', 'text/plain'])
          }
          const body = hasBody ? generated!.body : undefined
          return {
            route,
            method: parts.method,
            path: fillPattern(route.pattern, parts.params as Record<string, string>) + parts.query,
            headers,
            body,
            wrongMethod: !route.methods.includes(parts.method) && !(parts.method === 'HEAD' && route.methods.includes('GET')),
            // Over the limit and of a type the body parser reads (others are never read, so never buffered).
            oversized:
              body !== undefined &&
              Buffer.byteLength(body) > ctx.bodyLimit &&
              ['POST', 'PUT', 'PATCH', 'DELETE'].includes(parts.method) &&
              headers.some(([n, v]) => n === 'Content-Type' && /^(application\/(json|x-www-form-urlencoded)|multipart\/form-data)/.test(v)),
          }
        })
      )
  )

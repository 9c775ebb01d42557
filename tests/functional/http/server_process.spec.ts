import { test } from '@japa/runner'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '#tests/helpers/free_port'
import { request as httpRequest } from 'node:http'
import { createUser, serviceApiKey } from '#tests/helpers/fixtures'
import { send, type RawRequest, type RawResponse } from '#tests/helpers/fuzz/http'
import { resetRateLimits } from '#tests/helpers/fuzz/rate_limits'
import { ProcessGroup, type AppProcess } from '#tests/functional/scale_out/processes'
import { emptyDatabase } from '#tests/helpers/database'
import { NPM_START_NODE_OPTIONS } from '#tests/helpers/npm_start'

/**
 * Defences that only a real `npm start` process shows: a child server (bin/server.ts) with
 * `npm start`'s V8 limits, this run's database, a private TMPDIR and no NODE_ENV, as `npm start`.
 */
const NPM_START_ENV = {
  NODE_OPTIONS: NPM_START_NODE_OPTIONS,
  NODE_ENV: '',
  LOG_LEVEL: 'warn',
}
const OPS_TOKEN = 'server-process-ops-token-0123456789abcdef'

const portOf = (url: string) => Number(new URL(url).port)
const isAlive = (p: AppProcess) => p.child.exitCode === null && p.child.signalCode === null

/** The answer, or `closed` when the server hung up before the body was fully written. */
async function attempt(port: number, request: RawRequest): Promise<RawResponse | 'closed'> {
  try {
    return await send(port, request)
  } catch (error: any) {
    if (['EPIPE', 'ECONNRESET'].includes(error.code)) return 'closed'
    throw error
  }
}

/** A POST whose body is sent chunked (no Content-Length): the server learns its size only by reading. */
function postChunked(port: number, path: string, body: string): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'Content-Type': 'application/json', Connection: 'close' } })
    outgoing.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    outgoing.on('error', () => resolve('closed'))
    for (let offset = 0; offset < body.length; offset += 64 * 1024) outgoing.write(body.slice(offset, offset + 64 * 1024))
    outgoing.end()
  })
}

/** About 1 MB of `[{},{},…]`: cheap to send, ~20 MB of heap once parsed. */
const MEGABYTE_OF_OBJECTS = `[${'{},'.repeat(349_524)}{}]`

/** A multipart body with one 100 KB file part. */
function multipart(): { contentType: string; body: string } {
  const boundary = 'hrvaultboundary'
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="upload.bin"',
    'Content-Type: application/octet-stream',
    '',
    'x'.repeat(100 * 1024),
    `--${boundary}`,
    'Content-Disposition: form-data; name="name"',
    '',
    'value',
    `--${boundary}--`,
    '',
  ].join('\r\n')
  return { contentType: `multipart/form-data; boundary=${boundary}`, body }
}

/** Sends failing API-key requests from one claimed client address until one is a 429 (at most 100). */
async function exhaustKeyFailures(port: number, forwardedFor: string): Promise<RawResponse> {
  for (let i = 0; i < 100; i++) {
    const response = await send(port, {
      method: 'GET',
      path: '/api/v1/users/nobody/sleep',
      headers: [['X-API-Key', `hrv_not-a-key-${i}`], ['X-Forwarded-For', forwardedFor]],
    })
    if (response.status === 429) return response
  }
  throw new Error('no 429 after 100 failed keys')
}

const keyFailure = (port: number, forwardedFor: string) =>
  send(port, { method: 'GET', path: '/api/v1/users/nobody/sleep', headers: [['X-API-Key', 'hrv_wrong'], ['X-Forwarded-For', forwardedFor]] })

test.group('HTTP | server process: hostile bodies and headers', (group) => {
  let processes: ProcessGroup
  let server: AppProcess
  let url: string
  let key: string
  let tmp: string

  group.tap((t) => t.timeout(120_000))

  group.setup(async () => {
    await emptyDatabase()
    await resetRateLimits()
    await createUser('alice')
    // With a key on record the API is not open: every request below without one is unauthenticated.
    key = await serviceApiKey('server process')
    tmp = mkdtempSync(join(tmpdir(), 'hrvault-child-tmp-'))
    processes = new ProcessGroup({ ...NPM_START_ENV, TMPDIR: tmp, OPS_TOKEN })
    const started = await processes.web('web', await freePort())
    server = started.process
    url = started.url
    return async () => {
      await processes.stopAll()
      rmSync(tmp, { recursive: true, force: true })
      await resetRateLimits()
      await emptyDatabase()
    }
  })

  test('40 parallel 1 MB unauthenticated bodies leave the process alive and /health answering within 1 s', async ({ assert }) => {
    const port = portOf(url)
    const json = (path: string, headers: Array<[string, string]> = []): RawRequest => ({
      method: 'POST',
      path,
      headers: [['Content-Type', 'application/json'], ...headers],
      body: MEGABYTE_OF_OBJECTS,
    })
    const flood = [
      ...Array.from({ length: 20 }, () => json('/api/v1/users/alice/sync/trigger')),
      ...Array.from({ length: 5 }, () => json('/api/v1/users/alice/sync/trigger', [['X-API-Key', 'hrv_guessed']])),
      ...Array.from({ length: 10 }, () => json('/ops/console', [['Authorization', 'Bearer guessed']])),
    ].map((request) => attempt(port, request))
    // No Content-Length on a surface whose body is read before the session check: read up to the limit, then 413.
    const chunked = Array.from({ length: 5 }, () =>
      postChunked(port, '/coolify/api/applications/a0hrvault0app0000000001/envs', MEGABYTE_OF_OBJECTS)
    )

    const healthTimes: number[] = []
    let settled = false
    const all = Promise.all([Promise.all(flood), Promise.all(chunked)]).finally(() => (settled = true))
    all.catch(() => {})
    while (!settled) {
      const started = performance.now()
      const health = await fetch(`${url}/health`).catch((error) => {
        assert.fail(`/health failed during the flood (${error.cause?.code ?? error.message}):\n${processes.dump()}`)
      })
      healthTimes.push(performance.now() - started)
      assert.equal(health!.status, 200)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const [answers, chunkedStatuses] = await all

    assert.isTrue(isAlive(server), processes.dump())
    assert.isAbove(healthTimes.length, 0)
    assert.isBelow(Math.max(...healthTimes), 1000, `health answered in ${healthTimes.map(Math.round).join(', ')} ms`)
    for (const answer of answers) {
      if (answer === 'closed') continue
      assert.oneOf(answer.status, [401, 413, 429, 503], answer.body.slice(0, 200))
      assert.match(String(answer.headers['content-type']), /^application\/problem\+json/)
    }
    for (const status of chunkedStatuses) if (status !== 'closed') assert.oneOf(status, [413, 503])
    const afterwards = performance.now()
    assert.equal((await fetch(`${url}/health`)).status, 200)
    assert.isBelow(performance.now() - afterwards, 1000)
  })

  test('multipart bodies are refused with a 415 and leave no file in the temp folder', async ({ assert }) => {
    const port = portOf(url)
    const before = readdirSync(tmp)
    const { contentType, body } = multipart()
    const targets: Array<[string, Array<[string, string]>]> = [
      ['/api/v1/users/alice/baselines/calculate', [['X-API-Key', key]]],
      ['/api/v1/users/alice/baselines/calculate', []],
      ['/ops/console', [['Authorization', `Bearer ${OPS_TOKEN}`]]],
      ['/ops/console', []],
      ['/coolify/api/applications/a0hrvault0app0000000001/envs', []],
      ['/admin/login', []],
    ]
    for (const [path, headers] of targets) {
      const response = await attempt(port, { method: 'POST', path, headers: [...headers, ['Content-Type', contentType]], body })
      assert.notEqual(response, 'closed', path)
      const answer = response as RawResponse
      assert.equal(answer.status, 415, `${path}: ${answer.body.slice(0, 200)}`)
      if (!path.startsWith('/admin')) {
        assert.match(String(answer.headers['content-type']), /^application\/problem\+json/, path)
        assert.containsSubset(JSON.parse(answer.body), { status: 415, code: 'E_UNSUPPORTED_MEDIA_TYPE' })
      }
    }
    assert.deepEqual(readdirSync(tmp), before)
  })

  test('a header block over 16 KB is a 431 problem with the security headers', async ({ assert }) => {
    const response = await send(portOf(url), {
      method: 'GET',
      path: '/api/v1/users/alice/sleep',
      headers: [['X-API-Key', key], ['X-Padding', 'x'.repeat(17 * 1024)]],
    })
    assert.equal(response.status, 431)
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/)
    assert.containsSubset(JSON.parse(response.body), { status: 431, title: 'Request Header Fields Too Large', code: 'E_HEADERS_TOO_LARGE' })
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.equal(response.headers['x-frame-options'], 'DENY')
    assert.match(String(response.headers['strict-transport-security']), /max-age=\d+/)
    assert.isTrue(isAlive(server))
  })

  test('X-Forwarded-For from a peer not in TRUST_PROXY does not change the address that is limited', async ({ assert }) => {
    await resetRateLimits()
    const port = portOf(url)
    const limited = await exhaustKeyFailures(port, '203.0.113.10')
    assert.isAbove(Number(limited.headers['retry-after']), 0)
    // Another claimed address is still the same peer (127.0.0.1): refused as well.
    assert.equal((await keyFailure(port, '203.0.113.99')).status, 429)
    // A valid key from the limited address still passes.
    const valid = await send(port, { method: 'GET', path: '/api/v1/users/alice/sleep', headers: [['X-API-Key', key]] })
    assert.equal(valid.status, 200)
  })
})

test.group('HTTP | server process: start-up configuration', (group) => {
  let processes: ProcessGroup

  group.tap((t) => t.timeout(120_000))
  group.each.setup(async () => {
    await resetRateLimits()
    processes = new ProcessGroup({ ...NPM_START_ENV })
    return async () => {
      await processes.stopAll()
      await resetRateLimits()
    }
  })

  test('X-Forwarded-For is honoured from a proxy TRUST_PROXY lists; session cookies are Secure under an https APP_URL', async ({ assert }) => {
    await emptyDatabase()
    await serviceApiKey('trusted proxy')
    const { url } = await processes.web('web-behind-proxy', await freePort(), {
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      APP_URL: 'https://hrvault.example.test',
    })
    const port = portOf(url)
    const limited = await exhaustKeyFailures(port, '203.0.113.10')
    assert.equal(limited.status, 429)
    // The proxy (127.0.0.1) is trusted: each forwarded client has its own failure budget.
    assert.equal((await keyFailure(port, '203.0.113.99')).status, 401)
    assert.equal((await keyFailure(port, '203.0.113.10')).status, 429)

    const login = await fetch(`${url}/admin/login`, { redirect: 'manual' })
    const cookies = login.headers.getSetCookie()
    const session = cookies.find((c) => c.startsWith('hrvault-session='))
    assert.isString(session, cookies.join(' | '))
    assert.match(session!, /;\s*Secure/i)
    assert.match(cookies.find((c) => c.startsWith('XSRF-TOKEN=')) ?? '', /;\s*Secure/i)
    await emptyDatabase()
  })

  test('{name} is refused at start-up with a clear error')
    .with<Array<{ name: string; env: Record<string, string>; message: RegExp }>>([
      { name: 'TRUST_PROXY=true', env: { TRUST_PROXY: 'true' }, message: /TRUST_PROXY=true would trust X-Forwarded-For from any client/ },
      { name: 'a TRUST_PROXY entry that is no address', env: { TRUST_PROXY: '127.0.0.1,proxy.example' }, message: /TRUST_PROXY: invalid IP address/ },
      { name: 'a short OPS_TOKEN', env: { OPS_TOKEN: 'short-ops-token-0123456789' }, message: /OPS_TOKEN: a token is shorter than 32 characters/ },
      {
        name: 'short OPS_TOKENS',
        env: { OPS_TOKENS: JSON.stringify({ 'tiny-token': ['*'], 'another-tiny-token': ['health:read'], [OPS_TOKEN]: ['*'] }) },
        message: /OPS_TOKENS: 2 tokens are shorter than 32 characters/,
      },
    ])
    .run(async ({ assert }, row) => {
      const started = processes.start('refused', ['bin/server.ts'], { HRVAULT_ROLE: 'web', PORT: String(await freePort()), ...row.env })
      const code = await started.exited
      assert.notEqual(code, 0)
      assert.match(started.output(), row.message)
      assert.notInclude(started.output(), 'short-ops-token-0123456789', 'the token value is never printed')
    })
})

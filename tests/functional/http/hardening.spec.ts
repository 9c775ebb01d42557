import { test } from '@japa/runner'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import testUtils from '@adonisjs/core/services/test_utils'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { logDir, sqlitePath } from '#config/paths'
import { createUser, serviceApiKey } from '#tests/helpers/fixtures'
import { AdminBrowser, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { send, type RawResponse } from '#tests/helpers/fuzz/http'
import { resetRateLimits, withRequestBudget } from '#tests/helpers/fuzz/rate_limits'
import { truncateDatabase } from '#tests/helpers/database'

const port = () => Number(env.get('PORT'))
const OPS_TOKEN = 'hardening-ops-token-0123456789abcdefghij'
const PROBLEM = /^application\/problem\+json/

/** Installs OPS_TOKEN for the group; returns the restore function. */
function useOpsToken() {
  const previous = { tokens: env.get('OPS_TOKENS'), token: env.get('OPS_TOKEN') }
  env.set('OPS_TOKENS', JSON.stringify({ [OPS_TOKEN]: ['*'] }))
  env.set('OPS_TOKEN', '')
  return () => {
    env.set('OPS_TOKENS', previous.tokens ?? '')
    env.set('OPS_TOKEN', previous.token ?? '')
  }
}

const post = (path: string, headers: Array<[string, string]>, body: string, type = 'application/json') =>
  send(port(), { method: 'POST', path, headers: [...headers, ['Content-Type', type]], body })

function assertSecurityHeaders(assert: any, response: RawResponse, what: string) {
  assert.equal(response.headers['x-content-type-options'], 'nosniff', what)
  assert.equal(response.headers['x-frame-options'], 'DENY', what)
  assert.isAtLeast(Number(/max-age=(\d+)/.exec(String(response.headers['strict-transport-security']))?.[1]), 180 * 86400, what)
}

test.group('HTTP hardening | framework answers', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('unknown paths and undecodable URLs carry nosniff, X-Frame-Options and HSTS like every answer', async ({ assert }) => {
    for (const path of ['/no/such/page', '/api/v1/no-such-route', '/ops/no-such', '/coolify/api/no-such', '/schema/none']) {
      const response = await send(port(), { method: 'GET', path, headers: [] })
      assert.equal(response.status, 404, path)
      assertSecurityHeaders(assert, response, path)
    }
    const undecodable = await send(port(), { method: 'GET', path: '/api/v1/users/%zz/sleep', headers: [] })
    assert.equal(undecodable.status, 400)
    assert.match(String(undecodable.headers['content-type']), PROBLEM)
    assertSecurityHeaders(assert, undecodable, 'undecodable URL')
  })

  test('a user id with a NUL or control character is a 422 on every database, never a 500', async ({ assert }) => {
    const key = await serviceApiKey()
    for (const id of ['a%00b', '%00', '%E2%80%AE%00%07']) {
      for (const route of ['sleep', 'anomalies', 'activity/2026-03-14']) {
        const response = await send(port(), { method: 'GET', path: `/api/v1/users/${id}/${route}`, headers: [['X-API-Key', key]] })
        assert.equal(response.status, 422, `${id}/${route}: ${response.body.slice(0, 200)}`)
        assert.match(String(response.headers['content-type']), PROBLEM)
      }
    }
  })

  test('the SQLite file and the log files are owner-only (0600)', async ({ assert }) => {
    const marker = `file-mode-marker-${Date.now()}`
    logger.warn(marker)
    let files: string[] = []
    for (let attempt = 0; attempt < 50 && files.length === 0; attempt++) {
      files = (await readdir(logDir).catch(() => [] as string[])).filter((f) => f.startsWith('hrvault'))
      if (files.length === 0) await sleep(100)
    }
    assert.isAbove(files.length, 0, 'the logger wrote its files')
    for (const file of files) assert.equal((await stat(join(logDir, file))).mode & 0o777, 0o600, file)

    if (env.get('DB_CONNECTION') !== 'sqlite') return
    for (const file of [sqlitePath, `${sqlitePath}-wal`]) {
      assert.equal((await stat(file)).mode & 0o777, 0o600, file)
    }
  })
})

test.group('HTTP hardening | bodies are read after the credentials', (group) => {
  group.setup(useOpsToken)
  group.each.setup(async () => {
    await resetRateLimits()
    return truncateDatabase()
  })

  test('malformed JSON without credentials is a 401 on the analytics and operations APIs, with them a 400', async ({ assert }) => {
    await createUser('body_owner')
    const key = await serviceApiKey()
    const cases: Array<[string, Array<[string, string]>, string]> = [
      ['/api/v1/users/body_owner/baselines/calculate', [['X-API-Key', key]], 'E_INVALID_API_KEY'],
      ['/ops/console', [['Authorization', `Bearer ${OPS_TOKEN}`]], 'E_OPS_UNAUTHORIZED'],
    ]
    for (const [path, credentials, refusal] of cases) {
      for (const headers of [[], [['X-API-Key', 'hrv_wrong']], [['Authorization', 'Bearer wrong']]] as Array<Array<[string, string]>>) {
        const anonymous = await post(path, headers, '{"not json')
        assert.equal(anonymous.status, 401, `${path} ${JSON.stringify(headers)}: ${anonymous.body}`)
        assert.equal(JSON.parse(anonymous.body).code, refusal)
      }
      const authenticated = await post(path, credentials, '{"not json')
      assert.equal(authenticated.status, 400, `${path}: ${authenticated.body}`)
      assert.equal(JSON.parse(authenticated.body).code, 'E_MALFORMED_BODY')
    }
  })

  test('JSON up to 256 KB is parsed, so a maximal Coolify env value fits; more is a 413, forms over 64 KB too', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    const session: Array<[string, string]> = [['Cookie', browser.cookieHeader], ['X-XSRF-TOKEN', browser.xsrf()!]]
    const envs = '/coolify/api/applications/a0hrvault0app0000000001/envs'
    // 65 535 characters of three UTF-8 bytes each: the largest value the validator accepts.
    const maximal = JSON.stringify({ key: 'LARGEST_VALUE', value: '€'.repeat(65_535), comment: 'ü'.repeat(256), is_runtime: true })
    assert.isAbove(Buffer.byteLength(maximal), 196_000)
    const accepted = await post(envs, session, maximal)
    assert.notEqual(accepted.status, 413)
    assert.notInclude(accepted.body, '"field":"value"')

    const over = await post(envs, session, JSON.stringify({ key: 'TOO_LARGE', value: 'x'.repeat(256 * 1024) }))
    assert.equal(over.status, 413)
    assert.match(String(over.headers['content-type']), PROBLEM)

    const form = await post('/admin/api-keys', session, `name=${'x'.repeat(64 * 1024)}`, 'application/x-www-form-urlencoded')
    assert.equal(form.status, 413)
  })

  test('multipart is refused with a 415 problem before anything is read', async ({ assert }) => {
    await createUser('body_owner')
    const key = await serviceApiKey()
    const body = '--b\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc\r\n--b--\r\n'
    for (const [path, headers] of [
      ['/api/v1/users/body_owner/baselines/calculate', [['X-API-Key', key]]],
      ['/api/v1/users/body_owner/baselines/calculate', []],
      ['/ops/console', [['Authorization', `Bearer ${OPS_TOKEN}`]]],
    ] as Array<[string, Array<[string, string]>]>) {
      const response = await post(path, headers, body, 'multipart/form-data; boundary=b')
      assert.equal(response.status, 415, path)
      assert.match(String(response.headers['content-type']), PROBLEM)
      assert.containsSubset(JSON.parse(response.body), { status: 415, code: 'E_UNSUPPORTED_MEDIA_TYPE' })
    }
  })
})

test.group('HTTP hardening | failed credentials and Retry-After', (group) => {
  group.setup(useOpsToken)
  group.each.setup(async () => {
    await resetRateLimits()
    await resetLoginThrottle()
    return truncateDatabase()
  })
  group.each.teardown(async () => {
    await resetRateLimits()
    await resetLoginThrottle()
  })

  test('failed API keys are limited per address: after 60, a 429 with the real reset; a valid key still passes', async ({ assert }) => {
    await createUser('limited_owner')
    const key = await serviceApiKey()
    const path = '/api/v1/users/limited_owner/sleep'
    for (let i = 0; i < 60; i++) {
      const headers: Array<[string, string]> = i % 2 === 0 ? [['X-API-Key', `hrv_guess_${i}`]] : []
      const refused = await send(port(), { method: 'GET', path, headers })
      assert.equal(refused.status, 401, `attempt ${i + 1}`)
    }
    const limited = await send(port(), { method: 'GET', path, headers: [['X-API-Key', 'hrv_guess_last']] })
    assert.equal(limited.status, 429)
    assert.match(String(limited.headers['content-type']), PROBLEM)
    const retryAfter = Number(limited.headers['retry-after'])
    assert.isAbove(retryAfter, 10, 'the real reset of a one-minute window, not a short in-memory block')
    assert.isAtMost(retryAfter, 60)
    assert.equal(limited.headers['ratelimit-reset'], limited.headers['retry-after'])

    const valid = await send(port(), { method: 'GET', path, headers: [['X-API-Key', key]] })
    assert.equal(valid.status, 200)
  })

  test('a spent API budget answers Retry-After with the window reset, on every request until it resets', async ({ assert, cleanup }) => {
    withRequestBudget(2, cleanup)
    await createUser('budget_owner')
    const key = await serviceApiKey()
    const path = '/api/v1/users/budget_owner/sleep'
    for (let i = 0; i < 2; i++) assert.equal((await send(port(), { method: 'GET', path, headers: [['X-API-Key', key]] })).status, 200)
    for (let i = 0; i < 3; i++) {
      const limited = await send(port(), { method: 'GET', path, headers: [['X-API-Key', key]] })
      assert.equal(limited.status, 429)
      assert.isAbove(Number(limited.headers['retry-after']), 14 * 60, `refusal ${i + 1}`)
      assert.equal(limited.headers['ratelimit-reset'], limited.headers['retry-after'])
    }
  })

  test('failed ops tokens and the login throttle answer Retry-After with the window reset', async ({ assert }) => {
    let ops: RawResponse | null = null
    for (let i = 0; i < 61; i++) {
      ops = await send(port(), { method: 'GET', path: '/ops/health', headers: [['Authorization', `Bearer wrong-${i}`]] })
    }
    assert.equal(ops!.status, 429)
    assert.isAbove(Number(ops!.headers['retry-after']), 10)
    assert.equal(ops!.headers['ratelimit-reset'], ops!.headers['retry-after'])

    // 20 attempts per address and 15 minutes (any account): the 21st is throttled until the window resets.
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.get('/admin/login')
    for (let i = 0; i < 20; i++) await browser.post('/admin/login', { email: `nobody${i}@example.com`, password: 'wrong password' })
    const throttled = await browser.post('/admin/login', { email: 'nobody@example.com', password: 'wrong password' })
    // A throttled login is a 429 that renders the login page with the wait (it used to redirect back).
    assert.equal(throttled.status, 429)
    assert.isAbove(Number(throttled.headers.get('retry-after')), 14 * 60)
    assert.match(throttled.page?.props.errors.email, /Try again in 15 minutes/)
  })
})

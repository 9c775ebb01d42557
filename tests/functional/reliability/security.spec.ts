import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { logDir } from '#config/paths'
import AdminUser from '#models/admin_user'
import ApiKey from '#models/api_key'
import User from '#models/user'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { ApiKeyService } from '#services/auth/api_key_service'
import { serviceApiKey } from '#tests/helpers/fixtures'
import { ADMIN_PASSWORD, AdminBrowser, createAdmin } from '#tests/functional/admin/helpers'
import { completeToken, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { send } from '#tests/helpers/fuzz/http'
import { resetRateLimits } from '#tests/helpers/fuzz/rate_limits'
import { emptyDatabase, truncateDatabase } from '#tests/helpers/database'

const port = () => Number(env.get('PORT'))
const base = () => `http://127.0.0.1:${port()}`
const OPS_TOKEN = 'security-ops-token-abcdefghijklmnopqrstuvwxyz0123'

test.group('Reliability | security: body limits and headers', (group) => {
  group.each.setup(async () => {
    await resetRateLimits()
    return truncateDatabase()
  })
  group.setup(() => {
    const previous = env.get('OPS_TOKENS')
    env.set('OPS_TOKENS', JSON.stringify({ [OPS_TOKEN]: ['*'] }))
    return () => env.set('OPS_TOKENS', previous ?? '')
  })

  test('a body over 1 MB is a 413 problem on every API surface and changes nothing', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    await User.create({ externalId: 'big', isActive: true })
    const key = await serviceApiKey()
    const big = JSON.stringify({ command: 'list', days: 'x'.repeat(1024 * 1024 + 10) })
    const targets: Array<[string, Array<[string, string]>]> = [
      ['/api/v1/users/big/baselines/calculate', [['X-API-Key', key]]],
      ['/api/v1/users/big/sync/trigger', [['X-API-Key', key], ['X-Provider-Token', 't']]],
      ['/ops/console', [['Authorization', `Bearer ${OPS_TOKEN}`]]],
      ['/coolify/api/applications/a0hrvault0app0000000001/envs', [['Cookie', browser.cookieHeader], ['X-XSRF-TOKEN', browser.xsrf()!]]],
    ]
    for (const [path, headers] of targets) {
      const response = await send(port(), { method: 'POST', path, headers: [...headers, ['Content-Type', 'application/json']], body: big })
      assert.equal(response.status, 413, path)
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/, path)
      assert.containsSubset(JSON.parse(response.body), { status: 413, title: 'Payload Too Large' })
    }
    // Forms too (the admin UI): refused, no new key.
    const form = await send(port(), {
      method: 'POST',
      path: '/admin/api-keys',
      headers: [['Cookie', browser.cookieHeader], ['X-XSRF-TOKEN', browser.xsrf()!], ['Content-Type', 'application/x-www-form-urlencoded']],
      body: `name=${'x'.repeat(1024 * 1024 + 10)}`,
    })
    assert.equal(form.status, 413)
    assert.equal(await ApiKey.query().count('* as n').then((r) => Number(r[0].$extras.n)), 1)
  })

  test('every surface sends nosniff and no framing; admin pages a CSP without unsafe-inline; machine APIs no cookies', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    const key = await serviceApiKey()
    const responses: Record<string, Response> = {
      health: await fetch(`${base()}/health`),
      openapi: await fetch(`${base()}/schema/openapi.json`),
      analytics: await fetch(`${base()}/api/v1/users/nobody/sleep`, { headers: { 'X-API-Key': key } }),
      ops: await fetch(`${base()}/ops/queue`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } }),
      dashboard: await fetch(`${base()}/coolify/api/servers`, { headers: { Cookie: browser.cookieHeader } }),
    }
    for (const [name, response] of Object.entries(responses)) {
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', name)
      assert.equal(response.headers.get('x-frame-options'), 'DENY', name)
      // Sent on every response; browsers honour it only over https (RFC 6797 §8.1), so plain-http
      // loopback installs are unaffected and a TLS-terminating proxy gets it for free.
      const hsts = response.headers.get('strict-transport-security') ?? ''
      assert.isAtLeast(Number(/max-age=(\d+)/.exec(hsts)?.[1]), 180 * 86400, name)
    }
    // The header-authenticated APIs start no session and set no cookie; the admin UI still does.
    const user = await User.create({ externalId: 'cookieless', isActive: true })
    const machine = [
      responses.analytics,
      responses.ops,
      await fetch(`${base()}/api/v1/users/${user.externalId}/baselines`, { headers: { 'X-API-Key': key } }),
      await fetch(`${base()}/api/v1/users/${user.externalId}/sleep?days=abc`, { headers: { 'X-API-Key': key } }),
    ]
    for (const response of machine) assert.deepEqual(response.headers.getSetCookie(), [], response.url)
    const login = await fetch(`${base()}/admin/login`)
    assert.includeMembers(login.headers.getSetCookie().map((c) => c.split('=')[0]), ['hrvault-session', 'XSRF-TOKEN'])
    for (const path of ['/admin/overview', '/admin/api-keys', '/coolify']) {
      const page = await browser.get(path)
      assert.equal(page.status, 200, path)
      const csp = page.headers.get('content-security-policy') ?? ''
      assert.include(csp, "frame-ancestors 'none'", path)
      assert.include(csp, "default-src 'self'", path)
      assert.notInclude(csp, 'unsafe-inline', path)
      assert.notInclude(csp, 'unsafe-eval', path)
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff', path)
    }
  })

  test('session cookies are HttpOnly and SameSite, and the session id changes at login', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    const loginPage = await browser.get('/admin/login')
    const before = browser.cookies.get('hrvault-session')
    const sessionCookie = loginPage.headers.getSetCookie().find((c) => c.startsWith('hrvault-session='))!
    assert.match(sessionCookie, /HttpOnly/i)
    assert.match(sessionCookie, /SameSite=(Lax|Strict)/i)
    assert.match(sessionCookie, /Path=\//i)
    // The CSRF cookie must be readable by the page's script, and stays SameSite.
    const xsrfCookie = loginPage.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='))!
    assert.match(xsrfCookie, /SameSite=(Lax|Strict)/i)

    const login = await browser.post('/admin/login', { email: 'admin@example.com', password: ADMIN_PASSWORD })
    assert.oneOf(login.status, [302, 303])
    const after = browser.cookies.get('hrvault-session')
    assert.isString(before)
    assert.isString(after)
    assert.notEqual(after, before, 'a new session id after login (no fixation)')
    // The pre-login session id no longer opens the admin UI.
    const stale = await fetch(`${base()}/admin/overview`, { headers: { Cookie: `hrvault-session=${before}` }, redirect: 'manual' })
    assert.equal(stale.status, 302)
  })

  test('login next never redirects off-site', async ({ assert }) => {
    await createAdmin()
    const hostile = [
      '//evil.example/',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/admin',
      'javascript:alert(1)',
      '/%2F%2Fevil.example',
      '/admin/../..//evil.example',
      '/admin@evil.example',
      '/\t/evil.example',
      '/admin/overview\r\nLocation: https://evil.example',
      `/admin/${'a'.repeat(5000)}`,
    ]
    for (const next of hostile) {
      const browser = new AdminBrowser()
      await browser.get(`/admin/login?next=${encodeURIComponent(next)}`)
      const login = await browser.post('/admin/login', { email: 'admin@example.com', password: ADMIN_PASSWORD, next })
      const location = login.location ?? ''
      assert.oneOf(login.status, [302, 303], next)
      assert.match(location, /^\/(?![/\\])/, `${JSON.stringify(next)} → ${location}`)
      assert.equal(new URL(location, base()).origin, base(), next)
      assert.notMatch(location, /[\r\n]/)
    }
  })
})

test.group('Reliability | security: OAuth state and secrets in logs', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    await resetRateLimits()
    await emptyDatabase()
    ctx = await startSimulatorContext('2026-03-15')
    return async () => {
      await ctx.close()
      await emptyDatabase()
    }
  })

  test('an OAuth callback works once: replaying it connects nobody and creates no key', async ({ assert }) => {
    await new PolarCredentialsService().save('security-client', 'security-secret')
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    const connect = await browser.get('/admin/polar/connect')
    assert.oneOf(connect.status, [302, 303])
    const authorize = new URL(connect.location!)
    const decision = new URL(authorize)
    decision.pathname = '/oauth2/authorization/decision'
    decision.searchParams.set('decision', 'allow')
    decision.searchParams.set('login', 'security-athlete')
    const approved = await fetch(decision, { redirect: 'manual' })
    const callback = new URL(approved.headers.get('location')!)
    const callbackPath = callback.pathname + callback.search

    const first = await browser.get(callbackPath)
    assert.oneOf(first.status, [302, 303])
    const keysAfterFirst = (await ApiKey.all()).length
    const usersAfterFirst = (await User.all()).length
    assert.equal(usersAfterFirst, 1)

    // The same callback again (a replay, or a leaked URL opened by someone else).
    const replay = await browser.get(callbackPath)
    assert.oneOf(replay.status, [302, 303])
    const page = await browser.visit(replay.location!)
    assert.match(JSON.stringify(page.page?.props.flash ?? {}), /state|again|expired|invalid/i)
    assert.equal((await ApiKey.all()).length, keysAfterFirst)
    assert.equal((await User.all()).length, usersAfterFirst)

    // A second browser holding the same URL gets nothing either.
    const other = new AdminBrowser()
    await other.login()
    await other.get(callbackPath)
    assert.equal((await ApiKey.all()).length, keysAfterFirst)
  })

  test('provider tokens, API keys, ops tokens and passwords never reach the log files', async ({ assert }) => {
    const previousLevel = logger.level
    logger.level = 'trace'
    const previousOps = env.get('OPS_TOKENS')
    env.set('OPS_TOKENS', JSON.stringify({ [OPS_TOKEN]: ['*'] }))
    try {
      const providerToken = completeToken('secret_logger_token_QWERTY')
      const rejectedToken = 'invalid_secret_token_ZXCVBN_0987'
      await AdminUser.query().delete()
      await createAdmin()
      const browser = new AdminBrowser()
      await browser.login()
      const serviceKey = (await (await app.container.make(ApiKeyService)).create('log test', null)).plain

      // A full sync (success), a sync refused by the provider, and failed authentications.
      const synced = await fetch(`${base()}/api/v1/users/log_user/sync/trigger`, {
        method: 'POST',
        headers: { 'X-API-Key': serviceKey, 'X-Provider-Token': providerToken },
      })
      assert.equal(synced.status, 200)
      await fetch(`${base()}/api/v1/users/log_refused/sync/trigger`, {
        method: 'POST',
        headers: { 'X-API-Key': serviceKey, 'X-Provider-Token': rejectedToken },
      })
      const wrongKey = `${serviceKey.slice(0, 20)}WRONGKEYVALUE`
      await fetch(`${base()}/api/v1/users/log_user/sleep`, { headers: { 'X-API-Key': wrongKey } })
      await fetch(`${base()}/ops/health`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } })
      await fetch(`${base()}/ops/health`, { headers: { Authorization: `Bearer ${OPS_TOKEN}x` } })
      const wrongPassword = 'Wrong-Password-For-Log-Test-42'
      const other = new AdminBrowser()
      await other.get('/admin/login')
      await other.post('/admin/login', { email: 'admin@example.com', password: wrongPassword })

      // A key created in the admin UI (its value is flashed once, never logged).
      await browser.post('/admin/api-keys', { name: 'ui key' })
      const page = await browser.visit('/admin/api-keys')
      const uiKey = JSON.stringify(page.page?.props ?? {}).match(/hrv_[A-Za-z0-9_-]{43}/)?.[0]
      assert.isString(uiKey, 'the created key is shown once')

      // Wait until the log transport has written everything up to a marker line.
      const marker = `log-flush-marker-${Date.now()}`
      logger.info(marker)
      let text = ''
      for (let attempt = 0; attempt < 50 && !text.includes(marker); attempt++) {
        await sleep(100)
        const files = await readdir(logDir).catch(() => [] as string[])
        text = (await Promise.all(files.map((f) => readFile(join(logDir, f), 'utf8').catch(() => '')))).join('\n')
      }
      assert.include(text, marker, 'the log files were written')
      assert.include(text, 'sync', 'the sync itself was logged')

      const secrets = {
        providerToken,
        rejectedToken,
        serviceKey,
        serviceKeySecretPart: serviceKey.slice(12),
        wrongKey,
        uiKey: uiKey!,
        opsToken: OPS_TOKEN,
        adminPassword: ADMIN_PASSWORD,
        wrongPassword,
        polarClientSecret: 'security-secret',
      }
      for (const [name, value] of Object.entries(secrets)) {
        assert.notInclude(text, value, `${name} appears in the logs`)
      }
    } finally {
      logger.level = previousLevel
      env.set('OPS_TOKENS', previousOps ?? '')
    }
  }).timeout(60_000)
})

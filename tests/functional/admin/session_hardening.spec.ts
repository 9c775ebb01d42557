import { test } from '@japa/runner'
import { request as httpRequest } from 'node:http'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import { configProvider } from '@adonisjs/core'
import testUtils from '@adonisjs/core/services/test_utils'
import SessionMiddleware from '@adonisjs/session/session_middleware'
import AdminUser from '#models/admin_user'
import { LOGIN_FREE_FAILURES, LoginThrottleService } from '#services/admin/login_throttle_service'
import { RateLimitService } from '#services/rate_limit_service'
import { dashboardApiPrefix } from '#config/surfaces'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AdminBrowser,
  baseUrl,
  createAdmin,
  resetLoginThrottle,
  type PageResponse,
} from '#tests/functional/admin/helpers'

type SessionStore = 'cookie' | 'memory' | 'redis'

/**
 * The session stores the session tests run on: `cookie` (the default of `npm start`, where the
 * whole session lives in the browser), `memory` (the tests' default) and, with test:pg, `redis`.
 */
const STORES: SessionStore[] = ['cookie', 'memory', ...(process.env.TEST_REDIS ? (['redis'] as const) : [])]

/** Serves sessions from `store` until the returned function puts the configured store back. */
async function useSessionStore(store: SessionStore) {
  const config = await configProvider.resolve<any>(app, app.config.get('session'))
  const middleware = new SessionMiddleware({ ...config, store }, await app.container.make('emitter'))
  app.container.swap(SessionMiddleware, () => middleware)
  return () => app.container.restore(SessionMiddleware)
}

/** A second browser holding a copy of every cookie of the first (a stolen or synced cookie jar). */
function copyOf(browser: AdminBrowser) {
  const copy = new AdminBrowser()
  copy.cookies = new Map(browser.cookies)
  return copy
}

/** A dashboard API call (JSON) with the cookies of `browser`. */
async function dashboardApi(browser: AdminBrowser) {
  const response = await fetch(`${baseUrl()}${dashboardApiPrefix}/stats`, {
    headers: { Cookie: browser.cookieHeader, Accept: 'application/json' },
    redirect: 'manual',
  })
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() }
}

async function assertLoggedOut(assert: any, browser: AdminBrowser, label: string) {
  const page = await browser.get('/admin/overview')
  assert.equal(page.status, 302, label)
  assert.equal(page.location, '/admin/login?next=%2Fadmin%2Foverview', label)
  const api = await dashboardApi(browser)
  assert.equal(api.status, 401, label)
  assert.match(api.type, /^application\/problem\+json/, label)
  assert.equal(JSON.parse(api.body).code, 'E_ADMIN_UNAUTHENTICATED', label)
}

async function assertLoggedIn(assert: any, browser: AdminBrowser, label: string) {
  assert.equal((await browser.get('/admin/overview')).status, 200, label)
  assert.notEqual((await dashboardApi(browser)).status, 401, label)
}

const sessionVersionOf = async (email: string) => (await AdminUser.findByOrFail('email', email)).sessionVersion

test.group('Admin UI | ending sessions', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('logout ends every copy of the session cookie and the admin\'s other sessions ({$self} store)')
    .with(STORES)
    .run(async ({ assert, cleanup }, store) => {
      cleanup(await useSessionStore(store))
      await createAdmin()
      const browser = new AdminBrowser()
      await browser.login()
      const laptop = new AdminBrowser()
      await laptop.login()
      const copy = copyOf(browser)
      await assertLoggedIn(assert, copy, 'the copy works while the session lasts')
      const before = await sessionVersionOf(ADMIN_EMAIL)

      const logout = await browser.post('/admin/logout')
      assert.equal(logout.location, '/admin/login')
      await assertLoggedOut(assert, browser, 'the browser that logged out')
      await assertLoggedOut(assert, copy, 'a copy of its cookies taken before the logout')
      await assertLoggedOut(assert, laptop, 'another session of the same admin (logout is everywhere)')
      assert.equal(await sessionVersionOf(ADMIN_EMAIL), before + 1)

      assert.equal((await copy.login()).location, '/admin')
      await assertLoggedIn(assert, copy, 'a new login')
    })

  test('node ace admin password ends the sessions of that admin only ({$self} store)')
    .with(STORES)
    .run(async ({ assert, cleanup }, store) => {
      cleanup(await useSessionStore(store))
      await createAdmin()
      await createAdmin('second@example.com')
      const browser = new AdminBrowser()
      await browser.login()
      const copy = copyOf(browser)
      const second = new AdminBrowser()
      await second.login('second@example.com')
      const before = await sessionVersionOf(ADMIN_EMAIL)

      const changed = await ace.exec('admin', ['password', '--email', ADMIN_EMAIL, '--password', 'a brand new password'])
      assert.equal(changed.exitCode, 0)
      assert.equal(await sessionVersionOf(ADMIN_EMAIL), before + 1)
      await assertLoggedOut(assert, browser, 'the session opened with the old password')
      await assertLoggedOut(assert, copy, 'a copy of its cookies')
      await assertLoggedIn(assert, second, 'another admin')

      const fresh = new AdminBrowser()
      assert.match((await fresh.login(ADMIN_EMAIL, ADMIN_PASSWORD)).location!, /^\/admin\/login/)
      assert.equal((await fresh.login(ADMIN_EMAIL, 'a brand new password')).location, '/admin')
    })

  test('a session of a deleted admin is logged out', async ({ assert, cleanup }) => {
    cleanup(await useSessionStore('cookie'))
    await createAdmin('second@example.com')
    const admin = await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    await AdminUser.query().where('id', admin.id).delete()
    await assertLoggedOut(assert, browser, 'the deleted admin')
  })

  test('a session must carry the admin\'s current session version', async ({ assert, client }) => {
    const admin = await createAdmin()
    const overview = (session: Record<string, string | number>) => client.get('/admin/overview').withSession(session).redirects(0)
    assert.equal((await overview({ auth_web: `${admin.id}.0` })).status(), 200)
    // Written before session versions existed: logged out once.
    assert.equal((await overview({ auth_web: admin.id })).status(), 302)
    assert.equal((await overview({ auth_web: `${admin.id}.1` })).status(), 302)
    assert.equal((await overview({ auth_web: `${admin.id}.0.1` })).status(), 302)
    assert.equal((await client.get('/admin/overview').loginAs(admin).redirects(0)).status(), 200)
  })
})

/**
 * An AdminBrowser whose connections leave from another loopback address, so that the
 * server sees another client IP (Linux routes all of 127.0.0.0/8 to the loopback interface).
 */
class BrowserAt extends AdminBrowser {
  constructor(protected localAddress: string) {
    super()
  }

  async request(method: string, path: string, options: { form?: Record<string, string> } = {}): Promise<PageResponse> {
    const headers: Record<string, string> = { Accept: 'text/html' }
    if (this.cookies.size) headers.Cookie = this.cookieHeader
    const body = options.form ? new URLSearchParams(options.form).toString() : undefined
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded'
    const token = this.xsrf()
    if (method !== 'GET' && token) headers['X-XSRF-TOKEN'] = token
    const { status, rawHeaders, text } = await new Promise<{ status: number; rawHeaders: string[]; text: string }>((resolve, reject) => {
      const outgoing = httpRequest(`${baseUrl()}${path}`, { method, headers, localAddress: this.localAddress }, (response) => {
        let data = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (data += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, text: data }))
      })
      outgoing.on('error', reject)
      outgoing.end(body)
    })
    const responseHeaders = new Headers()
    for (let i = 0; i < rawHeaders.length; i += 2) responseHeaders.append(rawHeaders[i], rawHeaders[i + 1])
    this.remember(responseHeaders)
    return { status, location: responseHeaders.get('location'), headers: responseHeaders, text, page: null }
  }
}

const OTHER_ADDRESS = '127.0.0.2'

test.group('Admin UI | login throttling per account and address', (group) => {
  const throttle = new LoginThrottleService(new RateLimitService())

  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    await throttle.reset(OTHER_ADDRESS, [ADMIN_EMAIL])
    return async () => {
      // With Redis (test:pg) the counters outlive the transaction.
      await resetLoginThrottle()
      await throttle.reset(OTHER_ADDRESS, [ADMIN_EMAIL])
      await rollback()
    }
  })

  test('a fresh address with the right password gets in while another address is throttled for the account', async ({ assert }) => {
    await createAdmin()
    const attacker = new AdminBrowser()
    for (let i = 0; i < LOGIN_FREE_FAILURES + 3; i++) await attacker.login(ADMIN_EMAIL, `wrong ${i}`)
    // More failures of the attacker's pair, recorded directly so that its wait outlasts the test.
    for (let i = 0; i < 6; i++) await throttle.recordFailure('127.0.0.1', ADMIN_EMAIL)
    const refused = await attacker.login(ADMIN_EMAIL, ADMIN_PASSWORD)
    assert.equal(refused.status, 429)
    assert.isAbove(Number(refused.headers.get('retry-after')), 0)

    const owner = new BrowserAt(OTHER_ADDRESS)
    const response = await owner.login()
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin')
    assert.equal((await owner.get('/admin/overview')).status, 200)
    // The owner's success does not lift the attacker's wait.
    assert.equal((await attacker.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status, 429)
  }).skip(process.platform !== 'linux', 'needs 127.0.0.2 on the loopback interface (Linux)')

  test('the waits of one address grow with its failures and reach no other address', async ({ assert }) => {
    await createAdmin()
    const waits: number[] = []
    for (let i = 0; i < LOGIN_FREE_FAILURES + 12; i++) waits.push(await throttle.recordFailure('127.0.0.1', ADMIN_EMAIL))
    assert.deepEqual(waits, [0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900])
    const refused = await new AdminBrowser().login(ADMIN_EMAIL, ADMIN_PASSWORD)
    assert.equal(refused.status, 429)
    assert.isAbove(Number(refused.headers.get('retry-after')), 512)
    assert.isAtMost(Number(refused.headers.get('retry-after')), 900)
    assert.match(refused.page?.props.errors.email, /Try again in 15 minutes/)
    assert.deepEqual(await throttle.check(OTHER_ADDRESS, ADMIN_EMAIL), { allowed: true })
    assert.deepEqual(await throttle.check('127.0.0.1', 'second@example.com'), { allowed: true })
  })
})

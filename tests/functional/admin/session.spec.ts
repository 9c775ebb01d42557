import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { LOGIN_FREE_FAILURES, LoginThrottleService } from '#services/admin/login_throttle_service'
import { RateLimitService } from '#services/rate_limit_service'
import { safeNext } from '#services/admin/safe_redirect'
import { ADMIN_EMAIL, ADMIN_PASSWORD, AdminBrowser, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'

test.group('Admin UI | login and logout', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('a logged-out visitor is sent to the login page with the page to return to', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    const response = await browser.get('/admin/users?days=90')
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin/login?next=%2Fadmin%2Fusers%3Fdays%3D90')
    const coolify = await browser.get('/coolify')
    assert.equal(coolify.status, 302)
    assert.match(coolify.location!, /^\/admin\/login\?next=%2Fcoolify/)
  })

  test('wrong credentials are refused with one message for unknown accounts and wrong passwords', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    const wrongPassword = await browser.login(ADMIN_EMAIL, 'not the password')
    assert.match(wrongPassword.location!, /^\/admin\/login/)
    const first = await browser.visit(wrongPassword.location!)
    const unknown = await browser.login('nobody@example.com', 'not the password')
    const second = await browser.visit(unknown.location!)
    assert.equal(first.page?.props.errors.email, 'The email or password is incorrect.')
    assert.equal(second.page?.props.errors.email, first.page?.props.errors.email)
    const denied = await browser.get('/admin/overview')
    assert.equal(denied.status, 302)
  })

  test('a successful login rotates the session and reaches the requested page', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.get('/admin/login?next=/admin/api-keys')
    const before = browser.cookies.get('hrvault-session')
    const response = await browser.post('/admin/login', {
      email: ADMIN_EMAIL.toUpperCase(),
      password: ADMIN_PASSWORD,
      next: '/admin/api-keys',
    })
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin/api-keys')
    assert.notEqual(browser.cookies.get('hrvault-session'), before)
    const page = await browser.visit('/admin/api-keys')
    assert.equal(page.page?.component, 'api_keys')
    const loginPage = await browser.get('/admin/login')
    assert.equal(loginPage.status, 302)
    assert.equal(loginPage.location, '/admin')
  })

  test('next never leaves the admin UI', async ({ assert }) => {
    await createAdmin()
    for (const next of ['//evil.example/admin', 'https://evil.example/', '/\\evil.example', '/api/v1/users', '/coolify/api/stats', 'javascript:alert(1)']) {
      const browser = new AdminBrowser()
      await browser.get('/admin/login')
      const response = await browser.post('/admin/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, next })
      assert.equal(response.location, '/admin', next)
    }
    assert.equal(safeNext('/admin/overview?user=a&days=7'), '/admin/overview?user=a&days=7')
    assert.equal(safeNext('/coolify/apps/x/ops'), '/coolify/apps/x/ops')
    assert.equal(safeNext('/admin/../api/v1/users'), '/admin')
    assert.equal(safeNext('/admin\t/x'), '/admin')
  })

  test('logout ends the session', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    assert.equal((await browser.get('/admin/overview')).status, 200)
    const response = await browser.post('/admin/logout')
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin/login')
    const after = await browser.get('/admin/overview')
    assert.equal(after.status, 302)
    assert.match(after.location!, /^\/admin\/login/)
  })
})

test.group('Admin UI | login throttling', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('an address that keeps failing for an account must wait, even with the right password', async ({ assert, cleanup }) => {
    // With Redis (test:pg) the wait outlives the transaction: lift it for the specs that follow.
    cleanup(() => resetLoginThrottle())
    await createAdmin()
    const browser = new AdminBrowser()
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      const failed = await browser.login(ADMIN_EMAIL, `wrong ${i}`)
      assert.match(failed.location!, /^\/admin\/login/)
    }
    // Six more failures of this pair, recorded directly so that the wait (32 s) outlasts the test.
    const throttle = new LoginThrottleService(new RateLimitService())
    for (let i = 0; i < 6; i++) await throttle.recordFailure('127.0.0.1', ADMIN_EMAIL)
    const locked = await browser.login(ADMIN_EMAIL, ADMIN_PASSWORD)
    assert.equal(locked.status, 429)
    const retryAfter = Number(locked.headers.get('retry-after'))
    // The failures over HTTP count as well: 6 alone would mean a 4 s wait.
    assert.isAbove(retryAfter, 16)
    assert.isAtMost(retryAfter, 32)
    assert.match(locked.page?.props.errors.email, /Too many login attempts/)
    assert.equal((await browser.get('/admin/overview')).status, 302)

    // The Inertia client gets the same 429 as a page, its error shown under the field.
    const inertia = await browser.request('POST', '/admin/login', { form: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, inertia: true })
    assert.equal(inertia.status, 429)
    assert.equal(inertia.headers.get('x-inertia'), 'true')
    assert.equal(inertia.page?.component, 'auth/login')
    assert.match(inertia.page?.props.errors.email, /Too many login attempts/)

    const other = await createAdmin('second@example.com')
    const fresh = new AdminBrowser()
    const response = await fresh.login(other.email, ADMIN_PASSWORD)
    assert.equal(response.location, '/admin')
  })

  test('a successful login clears the failure count', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await browser.login(ADMIN_EMAIL, `wrong ${i}`)
    assert.equal((await browser.login()).location, '/admin')
    await browser.post('/admin/logout')
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      // Still free: without the reset, the first of these would start a wait and the next be a 429.
      const failed = await browser.login(ADMIN_EMAIL, `wrong ${i}`)
      assert.equal(failed.status, 302)
      assert.match(failed.location!, /^\/admin\/login/)
    }
    assert.equal((await browser.login()).location, '/admin')
  })
})

test.group('Admin UI | CSRF', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('a login without the XSRF token is refused', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.get('/admin/login')
    const response = await browser.post('/admin/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { xsrf: false })
    assert.notEqual(response.location, '/admin')
    assert.equal((await browser.get('/admin/overview')).status, 302)
  })

  test('a logged-in mutation without the XSRF token changes nothing', async ({ assert }) => {
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    await browser.post('/admin/api-keys', { name: 'forged' }, { xsrf: false })
    const page = await browser.visit('/admin/api-keys')
    assert.deepEqual(page.page?.props.keys, [])
    await browser.post('/admin/logout', {}, { xsrf: false })
    assert.equal((await browser.get('/admin/overview')).status, 200)
  })
})

test.group('Admin UI | security headers', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('admin pages carry a strict CSP, no framing and nosniff; the session cookie is HttpOnly', async ({ assert }) => {
    const browser = new AdminBrowser()
    const response = await browser.get('/admin/setup')
    const csp = response.headers.get('content-security-policy') ?? ''
    assert.include(csp, "frame-ancestors 'none'")
    assert.include(csp, "object-src 'none'")
    assert.notInclude(csp, 'unsafe-inline')
    assert.notInclude(csp, 'unsafe-eval')
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    assert.isString(nonce)
    assert.include(response.text, `nonce="${nonce}"`)
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
    assert.equal(response.headers.get('x-frame-options'), 'DENY')
    const session = response.headers.getSetCookie().find((c) => c.startsWith('hrvault-session='))!
    assert.match(session, /HttpOnly/)
    assert.match(session, /SameSite=Lax/)
  })
})

import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser, Page } from 'playwright'
import { OAuthTokenService } from '#services/oauth/oauth_token_service'
import { createUser } from '#tests/helpers/fixtures'
import { createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { authorizationRequest, authorizePath, pkce, postForm, registerClient, resetRegistrationLimit } from '#tests/helpers/oauth'
import { ADMIN_EMAIL, ADMIN_PASSWORD, baseUrl, horizontalOverflow, launchBrowser, openPage, screenshot } from '#tests/browser/helpers'

/** A native-app style loopback callback; the browser's request is answered by the test (no server listens). */
const CALLBACK = 'http://127.0.0.1:9/callback'

/**
 * Console errors other than the decision's 409: Inertia leaves for another origin through a 409
 * with X-Inertia-Location (then `window.location`), which Chromium logs as a failed load.
 */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of 409 \(Conflict\) \(.*\/oauth\/authorize\)/.test(p))

/** Answers the client's callback in the page, so the browser lands there like on a real connector. */
async function interceptCallback(page: Page) {
  await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' }))
}

async function start(page: Page, scope = 'health:read') {
  await resetRegistrationLimit()
  const clientId = (await registerClient({ client_name: 'Claude', redirect_uris: [CALLBACK] })).body.client_id as string
  const { verifier, challenge } = pkce()
  const request = authorizationRequest(clientId, challenge, { redirect_uri: CALLBACK, scope })
  await interceptCallback(page)
  await page.goto(authorizePath(request))
  return { clientId, verifier, request }
}

async function logIn(page: Page) {
  await page.waitForURL('**/admin/login?next=*')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL('**/oauth/authorize?*')
}

test.group('Admin UI in Chromium | OAuth consent', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser.close()
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('log in, choose the user and scopes, approve: the client gets a working code', async ({ assert }) => {
    await createAdmin()
    await createUser('first_user')
    const user = await createUser('second_user')
    const { page, context, problems } = await openPage(browser)
    const { clientId, verifier, request } = await start(page)
    await logIn(page)

    await page.getByRole('heading', { name: 'Claude wants to use HRVault' }).waitFor()
    assert.equal(await page.getByTestId('redirect-host').textContent(), '127.0.0.1:9')
    assert.isTrue(await page.getByLabel('health:read').isChecked())
    assert.isFalse(await page.getByLabel('sync', { exact: true }).isChecked())
    await page.getByLabel('User the app may read').selectOption('second_user')
    await page.getByLabel('sync', { exact: true }).check()
    await screenshot(page, 'oauth-consent')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(`${CALLBACK}?*`)

    const params = new URL(page.url()).searchParams
    assert.equal(params.get('state'), request.state)
    assert.equal(params.get('iss'), baseUrl())
    const tokens = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      code: params.get('code')!,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: clientId,
    })
    assert.equal(tokens.status, 200)
    const identity = await (await app.container.make(OAuthTokenService)).verifyAccessToken(tokens.body.access_token)
    assert.equal(identity!.userId, user.id)
    assert.deepEqual(identity!.scopes, ['health:read', 'sync'])
    assert.deepEqual(unexpected(problems), [])
    await context.close()
  })

  test('deny returns access_denied; no scope disables Approve', async ({ assert }) => {
    await createAdmin()
    await createUser('only_user')
    const { page, context, problems } = await openPage(browser, 375, 800)
    const { request } = await start(page)
    await logIn(page)

    await page.getByLabel('health:read').uncheck()
    assert.isTrue(await page.getByRole('button', { name: 'Approve' }).isDisabled())
    await page.getByText('Choose at least one kind of access.').waitFor()
    assert.isAtMost(await horizontalOverflow(page), 0)
    await page.getByRole('button', { name: 'Deny' }).click()
    await page.waitForURL(`${CALLBACK}?*`)
    const params = new URL(page.url()).searchParams
    assert.equal(params.get('error'), 'access_denied')
    assert.equal(params.get('state'), request.state)
    assert.isNull(params.get('code'))
    assert.deepEqual(unexpected(problems), [])
    await context.close()
  })

  test('Connected apps lists the app and disconnects it', async ({ assert }) => {
    await createAdmin()
    await createUser('listed_user')
    const { page, context, problems } = await openPage(browser)
    const { clientId, verifier } = await start(page)
    await logIn(page)
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(`${CALLBACK}?*`)
    const code = new URL(page.url()).searchParams.get('code')!
    const tokens = (await postForm('/oauth/token', { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId })).body

    await page.goto('/admin/connected-apps')
    const row = page.locator('tr', { hasText: 'listed_user' })
    await row.getByText('Claude').waitFor()
    await row.getByRole('button', { name: 'Revoke Claude' }).click()
    await row.getByRole('button', { name: 'Yes, disconnect' }).click()
    await page.getByText('Claude disconnected').waitFor()
    await page.getByText('No app is connected.').waitFor()
    assert.isNull(await (await app.container.make(OAuthTokenService)).verifyAccessToken(tokens.access_token))
    assert.deepEqual(unexpected(problems), [])
    await context.close()
  })
})

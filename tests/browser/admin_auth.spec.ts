import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser } from 'playwright'
import ApiKey from '#models/api_key'
import { SetupTokenService } from '#services/admin/setup_token_service'
import { createAdmin } from '#tests/functional/admin/helpers'
import { ADMIN_EMAIL, ADMIN_PASSWORD, launchBrowser, login, openPage } from '#tests/browser/helpers'

test.group('Admin UI in Chromium | setup, login and API keys', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser.close()
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('first run: the setup token from the log creates the admin', async ({ assert }) => {
    const token = (await new SetupTokenService().issue())!
    const { page, context, problems } = await openPage(browser)
    await page.goto('/admin')
    await page.waitForURL('**/admin/setup')
    await page.getByLabel('Setup token').fill('setup_wrong-token')
    await page.getByLabel('Admin email').fill('owner@example.com')
    await page.getByLabel('Password (at least 12 characters)').fill('a long enough password')
    await page.getByLabel('Repeat the password').fill('a long enough password')
    await page.getByRole('button', { name: 'Create admin account' }).click()
    await page.getByText('The setup token is invalid').waitFor()

    await page.getByLabel('Setup token').fill(token)
    await page.getByLabel('Password (at least 12 characters)').fill('a long enough password')
    await page.getByLabel('Repeat the password').fill('a long enough password')
    await page.getByRole('button', { name: 'Create admin account' }).click()
    await page.waitForURL('**/admin/overview')
    await page.getByText('owner@example.com').waitFor()
    await page.getByRole('heading', { name: 'No users yet' }).waitFor()
    assert.deepEqual(problems, [])
    await context.close()
  })

  test('login fails with a wrong password and succeeds with the right one', async ({ assert }) => {
    await createAdmin()
    const { page, context, problems } = await openPage(browser)
    await page.goto('/admin/api-keys')
    await page.waitForURL('**/admin/login?next=*')
    await page.getByLabel('Email').fill(ADMIN_EMAIL)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByText('The email or password is incorrect.').waitFor()
    assert.include(page.url(), '/admin/login')

    await page.getByLabel('Password').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/admin/api-keys')
    await page.getByRole('heading', { name: 'Analytics API keys' }).waitFor()

    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL('**/admin/login')
    await page.goto('/admin/overview')
    await page.waitForURL('**/admin/login?next=*')
    assert.deepEqual(problems, [])
    await context.close()
  })

  test('an API key is shown once on creation and can be revoked after confirming', async ({ assert }) => {
    await createAdmin()
    const { page, context, problems } = await openPage(browser)
    await login(page)
    await page.goto('/admin/api-keys')
    await page.getByLabel('Name').fill('dashboard')
    await page.getByRole('button', { name: 'Create key' }).click()
    const shown = (await page.getByTestId('new-key').textContent())!.trim()
    assert.match(shown, /^hrv_[A-Za-z0-9_-]{43}$/)
    const stored = await ApiKey.findByOrFail('name', 'dashboard')
    assert.equal(stored.prefix, shown.slice(0, 12))
    const row = page.locator(`tr[data-prefix="${stored.prefix}"]`)
    await row.getByText('active').waitFor()

    await page.reload()
    assert.equal(await page.getByTestId('new-key').count(), 0)

    await row.getByRole('button', { name: 'Revoke dashboard' }).click()
    await row.getByRole('button', { name: 'Yes, revoke' }).click()
    await row.getByText('revoked').waitFor()
    await stored.refresh()
    assert.isNotNull(stored.revokedAt)
    assert.deepEqual(problems, [])
    await context.close()
  })
})

import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser } from 'playwright'
import { SetupTokenService } from '#services/admin/setup_token_service'
import { horizontalOverflow, launchBrowser, openPage } from '#tests/browser/helpers'

const PASSWORD = 'a long enough password'

/** First-run setup: errors a person can act on, nothing typed is lost, and the welcome after it. */
test.group('Admin UI in Chromium | first-run setup', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser.close()
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a password mismatch is shown inline at {$self} px and keeps what was typed')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      await new SetupTokenService().issue()
      const { page, context, problems } = await openPage(browser, width, 800)
      await page.goto('/admin/setup')
      await page.getByLabel('Setup token').fill('setup_some-token')
      await page.getByLabel('Admin email').fill('owner@example.com')
      await page.getByLabel('Password (at least 12 characters)').fill(PASSWORD)
      await page.getByLabel('Repeat the password').fill(`${PASSWORD}!`)
      await page.getByRole('button', { name: 'Create admin account' }).click()
      const error = page.locator('#password_confirmation-error')
      await error.waitFor()
      assert.equal((await error.textContent())!.trim(), 'The two passwords do not match.')
      assert.equal(await page.getByLabel('Repeat the password').getAttribute('aria-invalid'), 'true')
      assert.equal(await page.getByLabel('Password (at least 12 characters)').inputValue(), PASSWORD)
      assert.equal(await page.getByLabel('Repeat the password').inputValue(), `${PASSWORD}!`)
      assert.isAtMost(await horizontalOverflow(page), 0)
      assert.deepEqual(problems, [])
      await context.close()
    })

  test('server-side errors are written for people, not validator rule text', async ({ assert }) => {
    await new SetupTokenService().issue()
    const { page, context, problems } = await openPage(browser)
    await page.goto('/admin/setup')
    await page.getByLabel('Admin email').fill('not-an-email')
    await page.getByLabel('Password (at least 12 characters)').fill('short')
    await page.getByLabel('Repeat the password').fill('short')
    await page.getByRole('button', { name: 'Create admin account' }).click()
    await page.locator('#token-error').waitFor()
    const texts = await page.locator('.field-error').allTextContents()
    assert.deepEqual(
      texts.map((t) => t.trim()),
      [
        'Enter the setup token printed on the server console.',
        'Enter a valid email address, like you@example.com.',
        'The password needs at least 12 characters.',
      ]
    )
    for (const text of texts) assert.notMatch(text, /field must|must be defined|_confirmation/)
    assert.deepEqual(problems, [])
    await context.close()
  })

  test('the welcome message appears after setup', async ({ assert }) => {
    const token = (await new SetupTokenService().issue())!
    const { page, context, problems } = await openPage(browser)
    await page.goto('/admin/setup')
    await page.getByLabel('Setup token').fill(token)
    await page.getByLabel('Admin email').fill('owner@example.com')
    await page.getByLabel('Password (at least 12 characters)').fill(PASSWORD)
    await page.getByLabel('Repeat the password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create admin account' }).click()
    await page.waitForURL('**/admin/overview')
    const welcome = page.locator('.alert.success')
    await welcome.waitFor()
    assert.include(await welcome.textContent(), 'Welcome to HRVault')
    assert.deepEqual(problems, [])
    await context.close()
  })
})

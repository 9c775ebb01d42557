import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser } from 'playwright'
import { ApiKeyService } from '#services/auth/api_key_service'
import { UserService } from '#services/user_service'
import { createAdmin } from '#tests/functional/admin/helpers'
import { horizontalOverflow, launchBrowser, login, openPage } from '#tests/browser/helpers'

/** The keys table fits a phone: rows become label/value cards instead of scrolling sideways. */
test.group('Admin UI in Chromium | API keys table', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser.close()
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the keys table never scrolls sideways at 375 px and stays a table at 1280 px', async ({ assert }) => {
    await createAdmin()
    await (await app.container.make(UserService)).findOrCreate('a-rather-long-user-id-from-an-integration')
    const keys = await app.container.make(ApiKeyService)
    await keys.create('grafana dashboard on the living-room screen')
    await keys.create('integration', 'a-rather-long-user-id-from-an-integration')

    const phone = await openPage(browser, 375, 800)
    await login(phone.page)
    await phone.page.goto('/admin/api-keys')
    const wrap = phone.page.locator('.table-wrap')
    await wrap.waitFor()
    const sideways = await wrap.evaluate((element) => element.scrollWidth - element.clientWidth)
    assert.isAtMost(sideways, 0, 'the table scrolls sideways')
    assert.isAtMost(await horizontalOverflow(phone.page), 0)
    const row = phone.page.locator('tr', { hasText: 'integration' }).last()
    await row.getByRole('button', { name: 'Revoke integration' }).click()
    const confirm = row.getByRole('button', { name: 'Yes, revoke' })
    const box = (await confirm.boundingBox())!
    assert.isAtMost(box.x + box.width, 375, 'the confirmation fits the screen')
    assert.isAtMost(await wrap.evaluate((element) => element.scrollWidth - element.clientWidth), 0)
    await confirm.click()
    await row.getByText('revoked').waitFor()
    assert.deepEqual(phone.problems, [])
    await phone.context.close()

    const desktop = await openPage(browser)
    await login(desktop.page)
    await desktop.page.goto('/admin/api-keys')
    await desktop.page.getByRole('columnheader', { name: 'Last used' }).waitFor()
    assert.isTrue(await desktop.page.getByRole('columnheader', { name: 'Last used' }).isVisible())
    assert.isAtMost(await horizontalOverflow(desktop.page), 0)
    assert.deepEqual(desktop.problems, [])
    await desktop.context.close()
  }).timeout(60_000)
})

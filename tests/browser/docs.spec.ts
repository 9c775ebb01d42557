import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser } from 'playwright'
import { createAdmin } from '#tests/functional/admin/helpers'
import { baseUrl, launchBrowser, login, openPage } from '#tests/browser/helpers'

/** The API docs and admin pages load everything from the server itself (self-hosters are often offline). */
test.group('Admin UI in Chromium | no request leaves the server', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser.close()
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('ReDoc and Swagger UI at {$self} px request nothing from another host')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const { page, context, problems } = await openPage(browser, width, 800)
      const requests: string[] = []
      context.on('request', (request) => requests.push(request.url()))
      await page.goto('/schema/redoc')
      await page.locator('.api-content h1, .api-info h1').first().waitFor()
      await page.locator('img[alt="redocly logo"]').waitFor({ state: 'attached' })
      await page.waitForLoadState('networkidle')
      await page.goto('/schema/swagger')
      await page.locator('.swagger-ui .info .title').waitFor()
      await page.waitForLoadState('networkidle')

      const own = new URL(baseUrl()).host
      const outside = requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).host !== own)
      assert.deepEqual(outside, [])
      assert.isTrue(requests.some((url) => url.endsWith('/schema/assets/hrvault/redocly-logo.svg')))
      assert.deepEqual(problems, [])
      await context.close()
    })

  test('every admin page requests nothing from another host', async ({ assert }) => {
    await createAdmin()
    const { page, context, problems } = await openPage(browser)
    const requests: string[] = []
    context.on('request', (request) => requests.push(request.url()))
    await login(page)
    for (const path of ['/admin/overview', '/admin/users', '/admin/polar', '/admin/api-keys', '/admin/connected-apps']) {
      await page.goto(path)
      await page.locator('main h1').waitFor()
      await page.waitForTimeout(500)
    }
    const own = new URL(baseUrl()).host
    assert.deepEqual(
      requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).host !== own),
      []
    )
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(60_000)
})

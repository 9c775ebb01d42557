import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser } from 'playwright'
import type { Worker } from '@adonisjs/queue'
import User from '#models/user'
import ApiKey from '#models/api_key'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { createQueueWorker } from '#services/sync/background_runner'
import { createAdmin } from '#tests/functional/admin/helpers'
import { horizontalOverflow, launchBrowser, login, openPage, screenshot } from '#tests/browser/helpers'
import { emptyDatabase } from '#tests/helpers/database'

/**
 * One story against the Polar simulator on loopback, with the queue worker
 * running in the test process: connect through the simulator's OAuth page,
 * the back-fill, the charts, then Sync now.
 */
test.group('Admin UI in Chromium | Polar connection, charts and Sync now', (group) => {
  let browser: Browser
  let sim: PolarSimulator
  let worker: Worker
  let workerDone: Promise<void>

  group.setup(async () => {
    await emptyDatabase()
    sim = await startPolarSimulator({ defaults: { missingRate: 0 } })
    app.container.swap(
      PolarClientFactory,
      () => new PolarClientFactory({ baseUrl: sim.url, authUrl: sim.authUrl, tokenUrl: sim.tokenUrl, retryDelayMs: 5, timeoutMs: 5000 })
    )
    worker = await createQueueWorker(1)
    workerDone = worker.start(['default'])
    browser = await launchBrowser()
    await createAdmin()
    return async () => {
      await browser.close()
      await worker.stop()
      await workerDone.catch(() => {})
      app.container.restore(PolarClientFactory)
      await sim.close()
      await emptyDatabase()
    }
  })

  test('connecting through the simulator OAuth page shows a user key once and back-fills', async ({ assert }) => {
    const { page, context, problems } = await openPage(browser)
    await login(page)
    await page.goto('/admin/polar')
    await page.getByText('not configured').waitFor()
    await page.getByLabel('Client ID').fill('hrvault-test-client')
    await page.getByLabel('Client secret').fill('hrvault-test-secret')
    await page.getByRole('button', { name: 'Save credentials' }).click()
    await page.getByText('Client hrvault-test-client').waitFor()
    assert.include(await page.getByTestId('callback-url').textContent(), '/admin/polar/callback')

    await page.getByRole('link', { name: 'Connect a Polar account' }).click()
    await page.waitForURL((url) => url.origin === new URL(sim.url).origin)
    await page.locator('#authorize').click()
    await page.waitForURL('**/admin/polar')
    const connected = page.getByTestId('connected')
    await connected.waitFor()
    const key = (await page.getByTestId('user-key').textContent())!.trim()
    assert.match(key, /^hrv_/)
    await connected.getByText('Sync finished.').waitFor({ timeout: 60_000 })

    const user = await User.query().firstOrFail()
    assert.isTrue(user.isConnected)
    const apiKey = await ApiKey.findByOrFail('prefix', key.slice(0, 12))
    assert.equal(apiKey.userId, user.id)

    await page.reload()
    assert.equal(await page.getByTestId('connected').count(), 0)

    // The budget card fills in after the page is shown; the webhook is registered from the page.
    const budget = page.getByTestId('budget')
    await budget.getByRole('row', { name: /15 minutes/ }).waitFor()
    assert.equal(await budget.getByRole('row').count(), 3)
    const webhook = page.getByTestId('webhook')
    await webhook.getByLabel('Public URL of the receiver').fill(`${new URL(page.url()).origin}/webhooks/polar`)
    await webhook.getByRole('button', { name: 'Register webhook' }).click()
    await page.getByText(/Webhook registered/).waitFor()
    await webhook.getByText('active', { exact: true }).waitFor()
    await screenshot(page, 'polar-webhook')
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(120_000)

  test('the overview draws the charts with data points after the back-fill', async ({ assert }) => {
    const user = await User.query().firstOrFail()
    for (const [width, name] of [
      [1280, 'overview-desktop'],
      [375, 'overview-375'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, width, 800)
      await login(page)
      await page.goto(`/admin/overview?user=${user.externalId}&days=30`)
      const hrv = page.locator('[data-chart="hrv_rmssd"]')
      await hrv.locator('canvas').waitFor()
      assert.isAbove(Number(await hrv.getAttribute('data-points')), 20)
      for (const key of ['sleep_score', 'resting_hr', 'training_load', 'steps']) {
        const chart = page.locator(`[data-chart="${key}"]`)
        assert.isAbove(Number(await chart.getAttribute('data-points')), 0, key)
        const box = await chart.locator('canvas').boundingBox()
        assert.isAbove(box!.width, 100, key)
        assert.isAtMost(box!.width, width, key)
      }
      await page.getByTestId('insights').waitFor()
      const overflow = await horizontalOverflow(page)
      assert.isAtMost(overflow, 0, `horizontal overflow at ${width}px`)
      await page.waitForTimeout(300)
      await screenshot(page, name)
      assert.deepEqual(problems, [])
      await context.close()
    }
  }).timeout(120_000)

  test('Sync now shows the progress of the run until it finishes', async ({ assert }) => {
    const user = await User.query().firstOrFail()
    const { page, context, problems } = await openPage(browser)
    await login(page)
    await page.goto('/admin/users')
    const card = page.locator(`[data-user="${user.externalId}"]`)
    await card.getByRole('button', { name: `Sync now ${user.externalId}` }).click()
    const progress = card.getByTestId('sync-progress')
    await progress.waitFor()
    await progress.getByText('Sync finished.').waitFor({ timeout: 60_000 })
    assert.oneOf(await progress.getByTestId('sync-status').textContent(), ['success', 'partial'])
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(120_000)

  test('every admin page fits a 375 px wide screen', async ({ assert }) => {
    const { page, context, problems } = await openPage(browser, 375, 800)
    await login(page)
    for (const path of ['/admin/users', '/admin/polar', '/admin/api-keys', '/admin/overview?days=365']) {
      await page.goto(path)
      await page.locator('main h1').waitFor()
      await page.waitForLoadState('networkidle')
      assert.isAtMost(await horizontalOverflow(page), 0, path)
    }
    await page.goto('/admin/users')
    await page.getByRole('button', { name: /^Sync now/ }).first().waitFor()
    await screenshot(page, 'users-375')
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(120_000)
})

import { test } from '@japa/runner'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright'
import env from '#start/env'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { TOKENS, useTestTokens } from '#tests/functional/ops/helpers'
import { allowPrivateOpsTargets, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'
import { createAdmin } from '#tests/functional/admin/helpers'
import { freshDatabase } from '#tests/functional/sync/simulator_context'
import { baseUrl, horizontalOverflow, launchBrowser, login, openPage } from '#tests/browser/helpers'

const LOG_FILE = 'admin-ui-log-filter.log'
const selfUrl = () => `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT')}`

/** Eight pino lines: five INFO, two WARN (40), one ERROR, with context fields to search in. */
async function writeLog() {
  const time = Date.parse('2026-11-21T08:00:00Z')
  const lines = [
    { level: 30, msg: 'server started', port: 3333 },
    { level: 30, msg: 'sync finished', user: 'anna', status: 'success' },
    { level: 40, msg: 'Polar answered slowly', user: 'anna', duration_ms: 4200 },
    { level: 30, msg: 'sync finished', user: 'bert', status: 'success' },
    { level: 50, msg: 'sync failed', user: 'carl', err: { message: 'provider timeout' } },
    { level: 40, msg: 'rate limit low', remaining: 12 },
    { level: 30, msg: 'request completed', url: '/health' },
    { level: 30, msg: 'request completed', url: '/api/v1/users' },
  ].map((l, i) => JSON.stringify({ ...l, time: time + i * 1000, pid: 1, hostname: 'app' }))
  await mkdir(logDir, { recursive: true })
  await writeFile(join(logDir, LOG_FILE), lines.join('\n') + '\n')
}

const rowCount = (page: Page) => page.getByTestId('log-entries').locator('tbody tr').count()

/** Waits until the log table shows exactly `n` rows. */
async function waitForRows(page: Page, n: number) {
  const rows = page.getByTestId('log-entries').locator('tbody tr')
  await rows.nth(n - 1).waitFor()
  await rows.nth(n).waitFor({ state: 'detached' })
}

/** The shared log table on the ops view: level filter and search narrow the rows, at both widths. */
test.group('Admin UI in Chromium | log filters on the ops view', (group) => {
  let browser: Browser
  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    await createAdmin()
    return cleanup
  })
  group.setup(async () => {
    const restoreTokens = useTestTokens()
    await writeLog()
    browser = await launchBrowser()
    return async () => {
      await browser.close()
      restoreTokens()
      await rm(join(logDir, LOG_FILE), { force: true })
    }
  })
  allowPrivateOpsTargets(group)
  useSimulator(group, { opsAppFqdn: selfUrl(), opsToken: TOKENS['*'], opsPrefix })

  test('level filter and search narrow the rows, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const { page, context, problems } = await openPage(browser, width, 900)
      await login(page)
      await page.goto(`/coolify/apps/${SIM_UUIDS.app}/ops`)
      await page.getByTestId('ops-status').getByText('healthy', { exact: true }).waitFor()
      await page.getByLabel('File').selectOption(LOG_FILE)
      await page.getByRole('button', { name: 'Read' }).click()
      await page.getByTestId('log-entries').waitFor()
      assert.equal(await rowCount(page), 8)
      assert.equal((await page.getByTestId('log-count').textContent())!.trim(), '8 of 8 lines')
      // Newest first, each row parsed into time, level and message.
      const first = page.getByTestId('log-entries').locator('tbody tr').first()
      assert.equal(await first.getAttribute('data-level'), 'INFO')
      assert.include(await first.textContent(), 'url=/api/v1/users')

      await page.getByLabel('Level').selectOption('WARNING')
      await waitForRows(page, 2)
      const levels = await page.getByTestId('log-entries').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-level')))
      assert.deepEqual(levels, ['WARNING', 'WARNING'])

      await page.getByLabel('Search').fill('anna')
      await waitForRows(page, 1)
      assert.include(await page.getByTestId('log-entries').textContent(), 'Polar answered slowly')

      // Search reads the context too (user=…), any level.
      await page.getByLabel('Level').selectOption('')
      await waitForRows(page, 2)
      assert.sameMembers(
        await page.getByTestId('log-entries').locator('tbody tr td.log-message').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent?.trim())),
        ['sync finished', 'Polar answered slowly']
      )
      await page.getByLabel('Search').fill('no such words')
      await page.getByText('No matching lines.').waitFor()
      assert.isAtMost(await horizontalOverflow(page), 0)
      assert.deepEqual(problems, [])
      await context.close()
    })
    .timeout(120_000)
})

/** Commits copy in full from their short form; a deployment log reads in its own scrolling pane. */
test.group('Admin UI in Chromium | commits and deployment logs', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser.close()
  })
  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    await createAdmin()
    return cleanup
  })
  useSimulator(group)

  test('a short commit copies the full hash and the deployment log scrolls inside its pane, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const { page, context, problems } = await openPage(browser, width, 800)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() })
      await login(page)
      await page.goto('/coolify')
      const deployments = page.getByTestId('deployments')
      await deployments.waitFor()
      const full = '9f3c2a1b7e6d5c4b3a29180f7e6d5c4b3a291801'
      const row = deployments.locator('tr', { hasText: 'feat: baselines' })
      await row.getByRole('button', { name: `Copy commit ${full}` }).click()
      await row.getByText('Copied.').waitFor()
      assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), full)

      await row.getByRole('button', { name: 'Log' }).click()
      const log = page.getByTestId('deployment-log')
      await log.waitFor()
      assert.include(await log.textContent(), `commit sha ${full}`)
      const style = await log.evaluate((element) => {
        const css = (globalThis as any).getComputedStyle(element)
        return { whiteSpace: css.whiteSpace, font: css.fontFamily, overflowX: css.overflowX }
      })
      assert.equal(style.whiteSpace, 'pre')
      assert.match(style.font, /mono/i)
      assert.include(['auto', 'scroll'], style.overflowX)
      if (width === 375) assert.isAbove(await log.evaluate((element) => element.scrollWidth - element.clientWidth), 0)
      assert.isAtMost(await horizontalOverflow(page), 0)
      assert.deepEqual(problems, [])
      await context.close()
    })
    .timeout(60_000)
})

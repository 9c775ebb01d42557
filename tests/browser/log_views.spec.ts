import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { useSimulator } from '#tests/functional/coolify/helpers'
import { baseUrl, finishPage, login, openPage, useAdminBrowser } from '#tests/browser/helpers'
import { readOpsLog, useOpsThroughCoolify } from '#tests/browser/coolify_helpers'

const LOG_FILE = 'admin-ui-log-filter.log'

/** Eight pino lines: five INFO, two WARN (40), one ERROR, with context fields to search in. */
const LOG_LINES = [
  { level: 30, msg: 'server started', port: 3333 },
  { level: 30, msg: 'sync finished', user: 'anna', status: 'success' },
  { level: 40, msg: 'Polar answered slowly', user: 'anna', duration_ms: 4200 },
  { level: 30, msg: 'sync finished', user: 'bert', status: 'success' },
  { level: 50, msg: 'sync failed', user: 'carl', err: { message: 'provider timeout' } },
  { level: 40, msg: 'rate limit low', remaining: 12 },
  { level: 30, msg: 'request completed', url: '/health' },
  { level: 30, msg: 'request completed', url: '/api/v1/users' },
]

const rowCount = (page: Page) => page.getByTestId('log-entries').locator('tbody tr').count()

/** Waits until the log table shows exactly `n` rows. */
async function waitForRows(page: Page, n: number) {
  const rows = page.getByTestId('log-entries').locator('tbody tr')
  await rows.nth(n - 1).waitFor()
  await rows.nth(n).waitFor({ state: 'detached' })
}

/** The shared log table on the ops view: level filter and search narrow the rows, at both widths. */
test.group('Admin UI in Chromium | log filters on the ops view', (group) => {
  const browser = useAdminBrowser(group)
  useOpsThroughCoolify(group, { file: LOG_FILE, lines: LOG_LINES })

  test('level filter and search narrow the rows, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openPage(browser(), width, 900)
      const { page } = opened
      await login(page)
      await readOpsLog(page, LOG_FILE)
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
      await finishPage(assert, opened)
    })
    .timeout(120_000)
})

/** Commits copy in full from their short form; a deployment log reads in its own scrolling pane. */
test.group('Admin UI in Chromium | commits and deployment logs', (group) => {
  const browser = useAdminBrowser(group)
  useSimulator(group)

  test('a short commit copies the full hash and the deployment log scrolls inside its pane, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openPage(browser(), width, 800)
      const { page, context } = opened
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() })
      await login(page)
      await page.goto('/coolify')
      const deployments = page.getByTestId('deployments')
      await deployments.waitFor()
      const full = '9f3c2a1b7e6d5c4b3a29180f7e6d5c4b3a291801'
      const row = deployments.locator('tr', { hasText: 'feat: baselines' })
      const commitText = async (text: string) => (await deployments.locator('tr', { hasText: text }).locator('td').nth(1).innerText()).replace(/\s+/g, ' ').trim()
      // The short hash, its copy link and the message read as separate words, on screen too.
      assert.equal(await commitText('feat: baselines'), '9f3c2a1 Copy feat: baselines')
      const copy = row.getByRole('button', { name: `Copy full commit hash ${full}` })
      const hashBox = (await row.locator('code').boundingBox())!
      const copyBox = (await copy.boundingBox())!
      if (Math.abs(copyBox.y - hashBox.y) < hashBox.height) assert.isAtLeast(copyBox.x - (hashBox.x + hashBox.width), 6)
      // A ref such as HEAD has nothing more to copy than it shows.
      assert.equal(await commitText('fix: sleep window'), 'HEAD fix: sleep window')
      await copy.click()
      await row.getByText('Copied.').waitFor()
      assert.equal(await commitText('feat: baselines'), '9f3c2a1 Copy Copied. feat: baselines')
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
      await finishPage(assert, opened, `coolify-commits-${width}`)
    })
    .timeout(60_000)
})

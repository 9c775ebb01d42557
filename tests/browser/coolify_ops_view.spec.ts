import { test } from '@japa/runner'
import { finishPage, login, openPage, useAdminBrowser } from '#tests/browser/helpers'
import { readOpsLog, useOpsThroughCoolify } from '#tests/browser/coolify_helpers'

const LOG_FILE = 'admin-ui-ops-view.log'

/** Pino lines whose meaning is in their context fields. */
const LOG_LINES = [
  { level: 30, msg: 'sync finished', user: 'u-1', status: 'success', counts: { sleep: 3, recharge: 3 }, duration_ms: 169 },
  { level: 50, msg: 'sync failed', user: 'u-2', err: { type: 'PolarTimeoutError', message: 'provider timeout' } },
]

/** The ops view through Coolify's proxy: log rows with their context, console output readable in its own pane. */
test.group('Admin UI in Chromium | Ops view', (group) => {
  const browser = useAdminBrowser(group)
  useOpsThroughCoolify(group, { file: LOG_FILE, lines: LOG_LINES })

  test('log rows show their context and the console output scrolls in its box beside its exit code, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openPage(browser(), width, 900)
      const { page } = opened
      await login(page)
      await readOpsLog(page, LOG_FILE)
      const entries = page.getByTestId('log-entries')
      const finished = entries.locator('tr', { hasText: 'sync finished' })
      const text = (await finished.textContent())!.replace(/\s+/g, ' ')
      for (const part of ['user=u-1', 'status=success', 'counts={"sleep":3,"recharge":3}', 'duration_ms=169']) assert.include(text, part)
      assert.notInclude(text, 'hostname=')
      assert.include(await entries.locator('tr', { hasText: 'sync failed' }).textContent(), 'provider timeout')

      await page.getByLabel('Command').selectOption('list')
      await page.getByRole('button', { name: 'Run' }).click()
      const result = page.getByTestId('console-result')
      await result.waitFor({ timeout: 60_000 })
      const exit = result.getByTestId('console-exit')
      assert.equal((await exit.textContent())!.trim(), 'Exit code 0')
      const pre = result.locator('pre.console')
      const style = await pre.evaluate((element) => {
        const css = (globalThis as any).getComputedStyle(element)
        return { whiteSpace: css.whiteSpace, font: css.fontFamily, overflowX: css.overflowX }
      })
      assert.equal(style.whiteSpace, 'pre')
      assert.match(style.font, /mono/i)
      assert.include(['auto', 'scroll'], style.overflowX)
      // The exit code sits right above the output; the output stays inside its card.
      const exitBox = (await exit.boundingBox())!
      const preBox = (await pre.boundingBox())!
      assert.isAtMost(preBox.y - (exitBox.y + exitBox.height), 24)
      const card = (await page.locator('section', { has: page.locator('#console-heading') }).boundingBox())!
      assert.isAtMost(preBox.x + preBox.width, card.x + card.width)
      assert.isAbove(await pre.evaluate((element) => (element.textContent ?? '').split('\n').length), 5)
      if (width === 375) {
        // Wide lines scroll inside the pane instead of wrapping or widening the page.
        assert.isAbove(await pre.evaluate((element) => element.scrollWidth - element.clientWidth), 0)
      }
      await finishPage(assert, opened)
    })
    .timeout(120_000)
})

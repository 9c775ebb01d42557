import { test } from '@japa/runner'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright'
import env from '#start/env'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { TOKENS, useTestTokens } from '#tests/functional/ops/helpers'
import { allowPrivateOpsTargets, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'
import { createAdmin } from '#tests/functional/admin/helpers'
import { freshDatabase } from '#tests/functional/sync/simulator_context'
import { horizontalOverflow, launchBrowser, login, openPage } from '#tests/browser/helpers'

const LOG_FILE = 'admin-ui-ops-view.log'
const selfUrl = () => `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT')}`

/** Pino lines whose meaning is in their context fields. */
async function writeLog() {
  const time = Date.parse('2026-11-21T08:00:00Z')
  const lines = [
    { level: 30, msg: 'sync finished', user: 'u-1', status: 'success', counts: { sleep: 3, recharge: 3 }, duration_ms: 169 },
    { level: 50, msg: 'sync failed', user: 'u-2', err: { type: 'PolarTimeoutError', message: 'provider timeout' } },
  ].map((l, i) => JSON.stringify({ ...l, time: time + i * 1000, pid: 1, hostname: 'app' }))
  await mkdir(logDir, { recursive: true })
  await writeFile(join(logDir, LOG_FILE), lines.join('\n') + '\n')
}

/** The ops view through Coolify's proxy: log rows with their context, console output readable in its own pane. */
test.group('Admin UI in Chromium | Ops view', (group) => {
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

  test('log rows show their context and the console output scrolls in its box beside its exit code, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const { page, context, problems } = await openPage(browser, width, 900)
      await login(page)
      await page.goto(`/coolify/apps/${SIM_UUIDS.app}/ops`)
      await page.getByTestId('ops-status').getByText('healthy', { exact: true }).waitFor()
      await page.getByLabel('File').selectOption(LOG_FILE)
      await page.getByRole('button', { name: 'Read' }).click()
      const entries = page.getByTestId('log-entries')
      await entries.waitFor()
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
      assert.isAtMost(await horizontalOverflow(page), 0)
      assert.deepEqual(problems, [])
      await context.close()
    })
    .timeout(120_000)
})

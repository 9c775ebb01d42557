import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright'
import env from '#start/env'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { TOKENS, useTestTokens } from '#tests/functional/ops/helpers'
import { allowPrivateOpsTargets, SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'
import { createAdmin } from '#tests/functional/admin/helpers'
import { horizontalOverflow, launchBrowser, login, openPage, screenshot } from '#tests/browser/helpers'

const LOG_FILE = 'admin-ui-browser.log'
const selfUrl = () => `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT')}`

/** A pino log of "this" application, read back through Coolify's ops proxy. */
async function writeLog() {
  const time = Date.parse('2026-11-21T08:00:00Z')
  const lines = [
    { level: 30, msg: 'sync started for u-1' },
    { level: 50, msg: 'sync failed: provider timeout' },
    { level: 30, msg: 'request completed' },
    { level: 50, msg: 'database unavailable' },
  ].map((l, i) => JSON.stringify({ ...l, time: time + i * 1000, pid: 1, hostname: 'app' }))
  await mkdir(logDir, { recursive: true })
  await writeFile(join(logDir, LOG_FILE), lines.join('\n') + '\n')
}

test.group('Admin UI in Chromium | Coolify and the ops proxy', (group) => {
  let browser: Browser
  group.each.setup(() => testUtils.db().truncate())
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
  const upstream = useSimulator(group, { opsAppFqdn: selfUrl(), opsToken: TOKENS['*'], opsPrefix })

  test('deploying an application queues a deployment in Coolify', async ({ assert }) => {
    await createAdmin()
    for (const [width, name] of [
      [1280, 'coolify-desktop'],
      [375, 'coolify-375'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, width, 800)
      await login(page)
      await page.goto('/coolify')
      await page.getByTestId('coolify-status').getByText('connected').waitFor()
      const panel = page.getByTestId('application-panel')
      await panel.getByRole('heading', { name: /hrvault/ }).waitFor()
      await panel.getByTestId('deployments').waitFor()
      if (width === 1280) {
        await panel.getByRole('button', { name: 'Deploy', exact: true }).click()
        await panel.getByRole('button', { name: 'Yes, deploy' }).click()
        await panel.getByTestId('action-message').getByText(/Deployment queued/).waitFor()
        const deploys = upstream.requests().filter((r) => r.path === '/deploy')
        assert.lengthOf(deploys, 1)
        assert.equal(deploys[0].query.uuid, SIM_UUIDS.app)
        // The new deployment shows up in the list (no stale cache after the mutation).
        await panel.getByTestId('deployments').getByText(/queued|in_progress/).first().waitFor()

        await panel.getByRole('button', { name: 'Show variables' }).click()
        const envs = panel.getByTestId('envs')
        await envs.waitFor()
        assert.notInclude(await envs.textContent(), TOKENS['*'])
        await panel.getByRole('button', { name: 'Reveal values' }).click()
        await envs.getByText(TOKENS['*']).waitFor()

        await panel.getByLabel('Key', { exact: true }).fill('FEATURE_FLAG')
        await panel.getByLabel('Value', { exact: true }).fill('enabled')
        await panel.getByRole('button', { name: 'Save variable' }).click()
        await envs.getByText('FEATURE_FLAG').waitFor()
        assert.isTrue(upstream.requests().some((r) => r.method === 'POST' && r.path === `/applications/${SIM_UUIDS.app}/envs`))
        await panel.getByRole('button', { name: 'Delete FEATURE_FLAG' }).click()
        await panel.getByRole('button', { name: 'Delete FEATURE_FLAG' }).click()
        await envs.getByText('FEATURE_FLAG').waitFor({ state: 'detached' })
      }
      await screenshot(page, name)
      const overflow = await horizontalOverflow(page)
      assert.isAtMost(overflow, 0, `horizontal overflow at ${width}px`)
      assert.deepEqual(problems, [])
      await context.close()
    }
  }).timeout(120_000)

  test('the log viewer reads a filtered log through the ops proxy', async ({ assert }) => {
    await createAdmin()
    const { page, context, problems } = await openPage(browser)
    await login(page)
    await page.goto(`/coolify/apps/${SIM_UUIDS.app}/ops`)
    await page.getByTestId('ops-status').getByText('healthy', { exact: true }).waitFor()
    await page.getByLabel('File').selectOption(LOG_FILE)
    await page.getByLabel('Level').selectOption('ERROR')
    await page.getByLabel('Search').fill('sync')
    await page.getByRole('button', { name: 'Read' }).click()
    const entries = page.getByTestId('log-entries')
    await entries.waitFor()
    const rows = entries.locator('tbody tr')
    assert.equal(await rows.count(), 1)
    assert.include(await rows.first().textContent(), 'sync failed: provider timeout')
    await page.getByTestId('ops-stats').getByText('CPU').waitFor()
    await page.getByTestId('ops-queue').getByText(/default: \d+ pending/).waitFor()
    const proxied = upstream.requests().map((r) => `${r.method} ${r.path}`)
    assert.isTrue(proxied.some((p) => p.includes(`/applications/${SIM_UUIDS.app}/envs`)))
    await screenshot(page, 'coolify-ops-desktop')
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(120_000)
})

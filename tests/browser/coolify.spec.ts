import { test } from '@japa/runner'
import { TOKENS } from '#tests/functional/ops/helpers'
import { SIM_UUIDS } from '#tests/functional/coolify/helpers'
import { finishPage, login, openPage, useAdminBrowser } from '#tests/browser/helpers'
import { readOpsLog, useOpsThroughCoolify } from '#tests/browser/coolify_helpers'

const LOG_FILE = 'admin-ui-browser.log'

/** A pino log of "this" application, read back through Coolify's ops proxy. */
const LOG_LINES = [
  { level: 30, msg: 'sync started for u-1' },
  { level: 50, msg: 'sync failed: provider timeout' },
  { level: 30, msg: 'request completed' },
  { level: 50, msg: 'database unavailable' },
]

test.group('Admin UI in Chromium | Coolify and the ops proxy', (group) => {
  const browser = useAdminBrowser(group)
  const upstream = useOpsThroughCoolify(group, { file: LOG_FILE, lines: LOG_LINES })

  test('deploying an application queues a deployment in Coolify', async ({ assert }) => {
    for (const [width, name] of [
      [1280, 'coolify-desktop'],
      [375, 'coolify-375'],
    ] as const) {
      const opened = await openPage(browser(), width, 800)
      const { page } = opened
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
      await finishPage(assert, opened, name)
    }
  }).timeout(120_000)

  test('the log viewer reads a filtered log through the ops proxy', async ({ assert }) => {
    const opened = await openPage(browser())
    const { page } = opened
    await login(page)
    await readOpsLog(page, LOG_FILE, { level: 'ERROR', search: 'sync' })
    const entries = page.getByTestId('log-entries')
    const rows = entries.locator('tbody tr')
    assert.equal(await rows.count(), 1)
    assert.include(await rows.first().textContent(), 'sync failed: provider timeout')
    await page.getByTestId('ops-stats').getByText('CPU').waitFor()
    await page.getByTestId('ops-queue').getByText(/default: \d+ pending/).waitFor()
    const proxied = upstream.requests().map((r) => `${r.method} ${r.path}`)
    assert.isTrue(proxied.some((p) => p.includes(`/applications/${SIM_UUIDS.app}/envs`)))
    await finishPage(assert, opened, 'coolify-ops-desktop')
  }).timeout(120_000)
})

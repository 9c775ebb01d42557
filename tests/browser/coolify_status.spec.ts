import { test } from '@japa/runner'
import type { Locator } from 'playwright'
import { SIM_UUIDS, useSimulator } from '#tests/functional/coolify/helpers'
import { finishPage, login, openPage, useAdminBrowser } from '#tests/browser/helpers'

/** The badge's tone class (ok, warn, bad) or '' when it has none. */
async function tone(badge: Locator): Promise<string> {
  const classes = ((await badge.getAttribute('class')) ?? '').split(/\s+/)
  return classes.find((c) => ['ok', 'warn', 'bad'].includes(c)) ?? ''
}

/** Coolify's state shown as people read it, and actions offered only where they make sense. */
test.group('Admin UI in Chromium | Coolify status and actions', (group) => {
  const browser = useAdminBrowser(group)
  const upstream = useSimulator(group)

  test('status badges are coloured from the status strings and commits are short, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openPage(browser(), width, 800)
      const { page } = opened
      await login(page)
      await page.goto('/coolify')
      const panel = page.getByTestId('application-panel')
      const heading = panel.getByRole('heading', { name: /hrvault/ })
      await heading.waitFor()
      const badge = heading.getByTestId('status-badge')
      assert.equal((await badge.textContent())!.trim(), 'running (healthy)')
      assert.equal(await tone(badge), 'ok')

      const deployments = panel.getByTestId('deployments')
      await deployments.waitFor()
      const finished = deployments.locator('tr', { hasText: 'feat: baselines' })
      assert.equal(await tone(finished.getByTestId('status-badge')), 'ok')
      assert.equal(await tone(deployments.locator('tr', { hasText: 'chore: bump deps' }).getByTestId('status-badge')), 'bad')
      assert.equal(await tone(deployments.locator('tr', { hasText: 'fix: sleep window' }).getByTestId('status-badge')), 'warn')
      const commit = finished.locator('code')
      assert.equal((await commit.textContent())!.trim(), '9f3c2a1')
      assert.equal(await commit.getAttribute('title'), '9f3c2a1b7e6d5c4b3a29180f7e6d5c4b3a291801')
      for (const code of await deployments.locator('tbody code').allTextContents()) assert.isAtMost(code.trim().length, 7, code)

      await page.locator('#app-select').selectOption({ label: 'marketing-site (exited (unhealthy))' })
      const stopped = panel.getByRole('heading', { name: /marketing-site/ }).getByTestId('status-badge')
      await stopped.waitFor()
      assert.equal(await tone(stopped), 'bad')

      await page.getByRole('tab', { name: 'Databases' }).click()
      const databases = page.locator('#panel-databases')
      await databases.getByRole('heading', { name: /hrvault-db/ }).waitFor()
      for (const one of await databases.getByTestId('status-badge').all()) assert.notEqual(await tone(one), '', (await one.textContent()) ?? '')
      await page.getByRole('tab', { name: 'Services' }).click()
      const services = page.locator('#panel-services')
      await services.getByRole('heading', { name: /plausible/ }).waitFor()
      assert.equal(await tone(services.getByRole('heading', { name: /plausible/ }).getByTestId('status-badge')), 'ok')
      assert.equal(await tone(services.getByRole('heading', { name: /uptime-kuma/ }).getByTestId('status-badge')), 'bad')
      await finishPage(assert, opened)
    })

  test('application logs read as time, level, message and context, with level filter and search, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openPage(browser(), width, 800)
      const { page } = opened
      await login(page)
      await page.goto('/coolify')
      const panel = page.getByTestId('application-panel')
      await panel.getByRole('heading', { name: /hrvault/ }).waitFor()
      await panel.getByRole('button', { name: 'Show the last 200 lines' }).click()
      const log = panel.getByTestId('app-log')
      await log.waitFor()
      assert.equal(await log.locator('tbody tr').count(), 200)
      const newest = (await log.locator('tbody tr').first().textContent())!.replace(/\s+/g, ' ')
      for (const part of ['INFO', 'request completed', 'url=/health', 'status=200', 'n=250']) assert.include(newest, part)
      assert.notInclude(await log.textContent(), '{"level"')

      await panel.getByLabel('Search').fill('"n":170}')
      assert.equal(await log.locator('tbody tr').count(), 1)
      await panel.getByLabel('Search').fill('')
      await panel.getByLabel('Level').selectOption('ERROR')
      await panel.getByText('No matching lines.').waitFor()
      await finishPage(assert, opened)
    })

  test('Start, Stop and Restart follow the state; Deploy and Stop ask first', async ({ assert }) => {
    const { page, context, problems } = await openPage(browser())
    await login(page)
    await page.goto('/coolify')
    const panel = page.getByTestId('application-panel')
    await panel.getByRole('heading', { name: /hrvault/ }).waitFor()
    const button = (name: string) => panel.getByRole('button', { name, exact: true })
    assert.isTrue(await button('Start').isDisabled())
    assert.isTrue(await button('Stop').isEnabled())
    assert.isTrue(await button('Restart').isEnabled())

    // Deploy: nothing is sent before the confirmation; Cancel sends nothing.
    await button('Deploy').click()
    await panel.getByTestId('confirm-action').getByText(/Deploy hrvault\?/).waitFor()
    assert.lengthOf(upstream.requests().filter((r) => r.path === '/deploy'), 0)
    await panel.getByTestId('confirm-action').getByRole('button', { name: 'Cancel' }).click()
    assert.equal(await panel.getByTestId('confirm-action').count(), 0)
    await button('Deploy').click()
    await button('Yes, deploy').click()
    await panel.getByTestId('action-message').getByText(/Deployment queued/).waitFor()
    assert.lengthOf(upstream.requests().filter((r) => r.path === '/deploy'), 1)

    // Stop: asks, then the state turns to exited and only Start is offered.
    await button('Stop').click()
    const stopPath = `/applications/${SIM_UUIDS.app}/stop`
    assert.lengthOf(upstream.requests().filter((r) => r.path === stopPath), 0)
    await button('Yes, stop').click()
    await panel.getByRole('heading', { name: /hrvault/ }).getByText('exited (unhealthy)').waitFor()
    assert.lengthOf(upstream.requests().filter((r) => r.path === stopPath), 1)
    assert.isTrue(await button('Start').isEnabled())
    assert.isTrue(await button('Stop').isDisabled())
    assert.isTrue(await button('Restart').isDisabled())

    // A stopped database offers Start only; a running one asks before Stop.
    await page.getByRole('tab', { name: 'Databases' }).click()
    const mysql = page.locator('#panel-databases article', { hasText: 'side-mysql' })
    await mysql.waitFor()
    assert.isTrue(await mysql.getByRole('button', { name: 'Start', exact: true }).isEnabled())
    assert.isTrue(await mysql.getByRole('button', { name: 'Stop', exact: true }).isDisabled())
    const postgres = page.locator('#panel-databases article', { hasText: 'hrvault-db' })
    await postgres.getByRole('button', { name: 'Stop', exact: true }).click()
    await postgres.getByRole('alertdialog').waitFor()
    assert.lengthOf(upstream.requests().filter((r) => r.path === `/databases/${SIM_UUIDS.postgres}/stop`), 0)
    await postgres.getByRole('button', { name: 'Cancel' }).click()
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(60_000)
})

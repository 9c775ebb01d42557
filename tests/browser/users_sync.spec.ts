import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser, Page } from 'playwright'
import type { Assert } from '@japa/assert'
import type { Worker } from '@adonisjs/queue'
import { createQueueWorker } from '#services/sync/background_runner'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { UserService } from '#services/user_service'
import { DATA_TYPE_LABELS } from '#services/records/data_types'
import { SYNC_TYPES } from '#services/sync/sync_types'
import { completeToken, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { createAdmin } from '#tests/functional/admin/helpers'
import { horizontalOverflow, launchBrowser, login, openPage } from '#tests/browser/helpers'

/** A user with a stored Polar token the simulator serves a complete profile for. */
async function connectedUser(name: string) {
  const user = await (await app.container.make(UserService)).findOrCreate(name)
  await (await app.container.make(ProviderTokenService)).store(user, completeToken(name))
  return user
}

/**
 * Clicks Sync now and records every text the progress box shows until the run finishes (polled
 * every 30 ms in the page, so short-lived states are seen too).
 */
async function syncAndWatch(page: Page, userId: string): Promise<string[]> {
  const card = page.locator(`[data-user="${userId}"]`)
  await page.evaluate(`(() => {
    const seen = []
    window.__progressTexts = seen
    setInterval(() => {
      const box = document.querySelector('[data-testid="sync-progress"]')
      const text = box?.textContent?.replace(/\\s+/g, ' ').trim()
      if (text && seen[seen.length - 1] !== text) seen.push(text)
    }, 30)
  })()`)
  await card.getByRole('button', { name: `Sync now ${userId}` }).click()
  await card.getByTestId('sync-progress').getByText('Sync finished.').waitFor({ timeout: 90_000 })
  await page.waitForTimeout(1500)
  return page.evaluate<string[]>('window.__progressTexts')
}

/** The running line: a catalogue type with its phase, or the analytics step after the types. */
const PHASE_LINE = /^(Syncing (.+): (listing|fetching details \d+\/\d+|storing)|Updating baselines and patterns) \((\d+)\/(\d+) types\)/

/** Every running line seen must name a phase, and a type from the catalogue; returns the phases seen. */
function checkRunningLines(assert: Assert, texts: string[], total: number) {
  const labels = Object.values(DATA_TYPE_LABELS)
  const phases = new Set<string>()
  for (const text of texts.filter((t) => /Syncing|Updating/.test(t))) {
    const match = text.match(PHASE_LINE)
    assert.match(text, PHASE_LINE, 'one line: type and phase, types done of the total')
    if (!match) continue
    if (match[2]) assert.include(labels, match[2], 'a catalogue label')
    assert.equal(Number(match[5]), total)
    phases.add(match[3]?.replace(/ \d+\/\d+$/, '') ?? 'analytics')
  }
  return phases
}

/** Sync now tells the truth: named types and phases, no stale state after the run, one status line, the catalogue's labels. */
test.group('Admin UI in Chromium | Users and Sync now', (group) => {
  let browser: Browser
  let worker: Worker
  let workerDone: Promise<void>
  let ctx: SimulatorContext | null = null
  const total = SYNC_TYPES.length

  group.setup(async () => {
    worker = await createQueueWorker(1)
    workerDone = worker.start(['default'])
    browser = await launchBrowser()
    return async () => {
      await browser.close()
      await worker.stop()
      await workerDone.catch(() => {})
    }
  })
  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    await createAdmin()
    return async () => {
      await ctx?.close()
      ctx = null
      await cleanup()
    }
  })

  test('a fast sync shows type and phase while running, ends in one status line and fills the Nightly Recharge "Last sync" cell', async ({ assert }) => {
    ctx = await startSimulatorContext()
    await connectedUser('fast-user')
    const { page, context, problems } = await openPage(browser)
    await login(page)
    await page.goto('/admin/users')
    const texts = await syncAndWatch(page, 'fast-user')
    const card = page.locator('[data-user="fast-user"]')

    const final = (await card.getByTestId('sync-progress').textContent())!
    assert.notMatch(final, /Syncing|Waiting|Updating|Starting/, 'no running state after the run finished')
    checkRunningLines(assert, texts, total)
    assert.equal(await card.getByTestId('sync-status').count(), 1, 'one status line')
    assert.equal(await card.getByTestId('sync-line').count(), 0)

    await card.getByText('Records per type').click()
    const rows = card.locator('details tbody tr')
    assert.equal(await rows.count(), Object.keys(DATA_TYPE_LABELS).length)
    const recharge = card.getByRole('row', { name: new RegExp(`^${DATA_TYPE_LABELS.recharge}`) })
    assert.match((await recharge.locator('td').nth(2).textContent())!.trim(), /^\d+$/)
    for (const labelText of Object.values(DATA_TYPE_LABELS)) {
      await card.getByRole('cell', { name: labelText, exact: true }).waitFor()
    }
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(120_000)

  test('a slow sync names the type and phase being worked on at 375 px and never shows them after the run', async ({ assert }) => {
    ctx = await startSimulatorContext('2026-03-15', { latencyMs: 120 })
    await connectedUser('slow-user')
    const { page, context, problems } = await openPage(browser, 375, 800)
    await login(page)
    await page.goto('/admin/users')
    const texts = await syncAndWatch(page, 'slow-user')
    const phases = checkRunningLines(assert, texts, total)
    assert.isAtLeast(phases.size, 1, `a phase seen while the run went: ${texts.join(' | ')}`)
    const card = page.locator('[data-user="slow-user"]')
    assert.notMatch((await card.getByTestId('sync-progress').textContent())!, /Syncing|Waiting|Updating|Starting/)
    assert.equal(await card.getByTestId('sync-status').count(), 1, 'one status line')
    assert.equal(await card.getByTestId('sync-line').count(), 0)
    assert.isAtMost(await horizontalOverflow(page), 0)
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(120_000)

  test('an invalid user id gets a clear inline error', async ({ assert }) => {
    for (const width of [1280, 375]) {
      const { page, context, problems } = await openPage(browser, width, 800)
      await login(page)
      await page.goto('/admin/users')
      await page.getByLabel('User id').fill('not a valid id!')
      await page.getByRole('button', { name: 'Register' }).click()
      const error = page.locator('#new-user-error')
      await error.waitFor()
      assert.include(await error.textContent(), 'only letters, digits')
      assert.equal(await page.getByLabel('User id').getAttribute('aria-invalid'), 'true')
      assert.isAtMost(await horizontalOverflow(page), 0)

      await page.getByLabel('User id').fill('valid-id.1')
      await page.getByRole('button', { name: 'Register' }).click()
      await page.locator('[data-user="valid-id.1"]').waitFor()
      assert.deepEqual(problems, [])
      await context.close()
      await freshDatabase().then((cleanup) => cleanup())
      await createAdmin()
    }
  }).timeout(60_000)
})

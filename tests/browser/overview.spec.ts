import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser, Page } from 'playwright'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { UserService } from '#services/user_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import DailyActivity from '#models/daily_activity'
import { completeToken, freshDatabase, shiftDate, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { createAdmin } from '#tests/functional/admin/helpers'
import { horizontalOverflow, launchBrowser, login, openPage } from '#tests/browser/helpers'

interface TickBox {
  text: string
  left: number
  right: number
}

/** The drawn x-axis labels of every chart on the page, once each chart has drawn. */
async function tickBoxes(page: Page): Promise<Record<string, TickBox[]>> {
  await page.locator('figure[data-chart="hrv_rmssd"] canvas').waitFor()
  const charts = page.locator('figure[data-chart]')
  const out: Record<string, TickBox[]> = {}
  for (const figure of await charts.all()) {
    if ((await figure.locator('canvas').count()) === 0) continue
    await figure.locator('canvas').waitFor()
    const key = (await figure.getAttribute('data-chart'))!
    await page.waitForFunction((element) => element?.hasAttribute('data-x-ticks'), await figure.elementHandle())
    out[key] = JSON.parse((await figure.getAttribute('data-x-ticks'))!)
  }
  return out
}

/** A year of data on the simulator, shown on the overview at every range and width. */
test.group('Admin UI in Chromium | Overview', (group) => {
  let browser: Browser
  let ctx: SimulatorContext
  const userId = 'year-user'

  group.setup(async () => {
    const cleanup = await freshDatabase()
    ctx = await startSimulatorContext()
    await createAdmin()
    const user = await (await app.container.make(UserService)).findOrCreate(userId)
    await (await app.container.make(ProviderTokenService)).store(user, completeToken(userId))
    await (await app.container.make(UserSyncService)).sync(user, { days: 365, trigger: 'command' })
    // Polar lists the last 28 days only: a year of daily activity, as a long-time user has it.
    await DailyActivity.query().where('userId', user.id).delete()
    await DailyActivity.createMany(
      Array.from({ length: 365 }, (_, i) => ({
        userId: user.id,
        date: shiftDate('2026-03-15', -i),
        steps: 6000 + ((i * 137) % 5000),
      }))
    )
    browser = await launchBrowser()
    return async () => {
      await browser.close()
      await ctx.close()
      await cleanup()
    }
  })

  test('x-axis labels never overlap, at every range and at 1280 and 375 px', async ({ assert }) => {
    for (const width of [1280, 375]) {
      const { page, context, problems } = await openPage(browser, width, 900)
      await login(page)
      for (const days of [7, 30, 90, 365]) {
        await page.goto(`/admin/overview?user=${userId}&days=${days}`)
        const charts = await tickBoxes(page)
        assert.isAtLeast(Object.keys(charts).length, 4, `${days} days at ${width}px`)
        for (const [key, boxes] of Object.entries(charts)) {
          const where = `${key}, ${days} days at ${width}px: ${JSON.stringify(boxes)}`
          assert.isAtLeast(boxes.length, 2, where)
          const sorted = [...boxes].sort((a, b) => a.left - b.left)
          for (let i = 1; i < sorted.length; i++) assert.isAtMost(sorted[i - 1].right, sorted[i].left, where)
          for (const box of boxes) assert.notMatch(box.text, /\d{4}-\d{2}-\d{2}/, where)
        }
        if (days === 365) {
          // Polar keeps some types for 28 days only; a chart whose data spans the year ticks by month.
          const long = Object.values(charts).filter((boxes) => boxes.every((box) => /^[A-Z][a-z]{2}( \d{4})?$/.test(box.text)))
          assert.isAtLeast(long.length, 1, `month ticks at ${width}px: ${JSON.stringify(charts)}`)
        }
        assert.isAtMost(await horizontalOverflow(page), 0, `${days} days at ${width}px`)
      }
      assert.deepEqual(problems, [])
      await context.close()
    }
  }).timeout(180_000)

  test('insights read as words: no raw enums or mangled acronyms', async ({ assert }) => {
    const { page, context, problems } = await openPage(browser)
    await login(page)
    await page.goto(`/admin/overview?user=${userId}&days=30`)
    const insights = page.getByTestId('insights')
    await insights.waitFor()
    for (const details of await page.locator('main details').all()) await details.locator('summary').click()
    const text = await page.locator('main').innerText()
    assert.notMatch(text, /\b[a-z0-9]+_[a-z0-9_]+\b/, 'a snake_case key shown as text')
    assert.notMatch(text, /\bMl\b|\bSpo2\b|\bEcg\b|\bSleepwise\b/)
    await insights.getByText('ML predictions').waitFor()
    assert.deepEqual(problems, [])
    await context.close()
  }).timeout(60_000)

  test('the user picker tells users apart and stays readable for an unknown user', async ({ assert }) => {
    for (const width of [1280, 375]) {
      const { page, context, problems } = await openPage(browser, width, 800)
      await login(page)
      await page.goto(`/admin/overview?user=${userId}`)
      const picker = page.getByLabel('User')
      const option = picker.locator('option', { hasText: userId })
      assert.match((await option.textContent())!, new RegExp(`^${userId} · synced `))
      assert.equal(await picker.inputValue(), userId)

      await page.goto('/admin/overview?user=nobody')
      await page.getByRole('alert').getByText('“nobody” does not exist').waitFor()
      assert.equal(await picker.inputValue(), '')
      assert.equal(
        await picker.evaluate((select) => (select as unknown as { selectedOptions: Array<{ text: string }> }).selectedOptions[0]?.text),
        'Choose a user'
      )
      await picker.selectOption(userId)
      await page.waitForURL(`**/admin/overview?user=${userId}*`)
      await page.locator('figure[data-chart="hrv_rmssd"] canvas').waitFor()
      assert.isAtMost(await horizontalOverflow(page), 0)
      assert.deepEqual(problems, [])
      await context.close()
    }
  }).timeout(60_000)
})

import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Group } from '@japa/runner/core'
import type { Browser, Page } from 'playwright'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { UserService } from '#services/user_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import DailyActivity from '#models/daily_activity'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import CardioLoad from '#models/cardio_load'
import User from '#models/user'
import { completeToken, freshDatabase, shiftDate, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { createAdmin } from '#tests/functional/admin/helpers'
import { finishPage, horizontalOverflow, launchBrowser, login, openPage, screenshot } from '#tests/browser/helpers'

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

/** Labels never overlap: each label ends before the next begins. */
function assertApart(assert: { isAtMost: (a: number, b: number, m?: string) => void }, boxes: TickBox[], where: string) {
  const sorted = [...boxes].sort((a, b) => a.left - b.left)
  for (let i = 1; i < sorted.length; i++) assert.isAtMost(sorted[i - 1].right, sorted[i].left, where)
}

/** The day whose HRV the setup makes unusual (far below the usual range). */
const ODD_DAY = '2026-03-10'

/**
 * For a whole group: an emptied database with the admin, the Polar simulator (`simulator` are its
 * arguments), `userId` connected and synced for `days` with ODD_DAY's HRV made far unusual, then
 * `seed` for anything more, and Chromium. The group's browser and simulator context are returned.
 */
function useSyncedUser(group: Group, userId: string, days: number, simulator: Parameters<typeof startSimulatorContext>, seed?: (user: User) => Promise<void>) {
  const state = {} as { browser: Browser; ctx: SimulatorContext }
  group.setup(async () => {
    const cleanup = await freshDatabase()
    state.ctx = await startSimulatorContext(...simulator)
    await createAdmin()
    const user = await (await app.container.make(UserService)).findOrCreate(userId)
    await (await app.container.make(ProviderTokenService)).store(user, completeToken(userId))
    await (await app.container.make(UserSyncService)).sync(user, { days, trigger: 'command' })
    // One night far outside the stored baseline (computed by the sync), for the anomaly marker.
    await NightlyRecharge.query().where('userId', user.id).where('date', ODD_DAY).update({ hrvAvg: 3 })
    await seed?.(user)
    state.browser = await launchBrowser()
    return async () => {
      await state.browser.close()
      await state.ctx.close()
      await cleanup()
    }
  })
  return state
}

/** A year of data on the simulator, shown on the overview at every range and width. */
test.group('Admin UI in Chromium | Overview', (group) => {
  const userId = 'year-user'
  const synced = useSyncedUser(group, userId, 365, [], async (user) => {
    // Polar lists the last 28 days only: a year of daily activity, as a long-time user has it.
    await DailyActivity.query().where('userId', user.id).delete()
    await DailyActivity.createMany(
      Array.from({ length: 365 }, (_, i) => ({
        userId: user.id,
        date: shiftDate('2026-03-15', -i),
        steps: 6000 + ((i * 137) % 5000),
      }))
    )
  })

  test('x-axis labels never overlap, at every range and at 1280 and 375 px', async ({ assert }) => {
    for (const width of [1280, 375]) {
      const { page, context, problems } = await openPage(synced.browser, width, 900)
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
    const { page, context, problems } = await openPage(synced.browser)
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
      const { page, context, problems } = await openPage(synced.browser, width, 800)
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

/** The headline tiles, range control, day readout, anomalies, badges, freshness and dark theme. */
test.group('Admin UI in Chromium | Overview worth opening daily', (group) => {
  const userId = 'daily-user'
  const today = '2026-03-15'
  // Four months of every type, so the 90-day and custom ranges are full.
  const synced = useSyncedUser(group, userId, 120, [today, { window: 120 }])
  group.each.setup(() => () => synced.ctx.clock.set(`${today}T12:00:00`))

  const userRow = async () => (await User.findByOrFail('externalId', userId)).id
  /** A signed-in page at `width` showing the user's overview for `query`. */
  async function openOverview(width: number, query = 'days=30') {
    const opened = await openPage(synced.browser, width, 900)
    await login(opened.page)
    await opened.page.goto(`/admin/overview?user=${userId}&${query}`)
    return opened
  }

  test('headline tiles carry the simulator\'s latest values with trend and band, and the freshness line counts at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const id = await userRow()
      const night = await SleepRecord.query().where('userId', id).orderBy('date', 'desc').firstOrFail()
      const recharge = await NightlyRecharge.query().where('userId', id).orderBy('date', 'desc').firstOrFail()
      const cardio = await CardioLoad.query().where('userId', id).whereNotNull('cardioLoadRatio').orderBy('date', 'desc').firstOrFail()
      assert.equal(night.date, today)

      synced.ctx.clock.set(`${today}T12:03:30`)
      const opened = await openOverview(width)
      const { page } = opened
      const tiles = page.getByTestId('tiles')
      await tiles.waitFor()
      const value = async (key: string) => (await tiles.locator(`[data-tile="${key}"] [data-testid="tile-value"]`).textContent())!.trim()
      assert.equal(await value('sleep_score'), String(night.sleepScore))
      assert.equal(await value('hrv_rmssd'), String(Math.round(recharge.hrvAvg!)))
      assert.equal(await value('resting_hr'), String(Math.round(recharge.heartRateAvg!)))
      assert.equal(Number(await value('training_load_ratio')), Number(cardio.cardioLoadRatio!.toFixed(2)))
      const seconds = (night.lightSleepSeconds ?? 0) + (night.deepSleepSeconds ?? 0) + (night.remSleepSeconds ?? 0)
      const minutes = Math.round(seconds / 60)
      const duration = `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min asleep`
      assert.equal((await tiles.locator('[data-tile="sleep_score"] [data-testid="tile-detail"]').textContent())!.trim(), duration)
      assert.include(await tiles.locator('[data-tile="sleep_score"] h2').textContent(), 'last night')

      for (const key of ['sleep_score', 'hrv_rmssd', 'resting_hr', 'training_load_ratio']) {
        const tile = tiles.locator(`[data-tile="${key}"]`)
        const band = await tile.locator('[data-band]').getAttribute('data-band')
        assert.include(['below', 'within', 'above'], band!, key)
        assert.match((await tile.locator('[data-band]').textContent())!, /^(Below|Within|Above) usual/)
        assert.match((await tile.textContent())!, /(Within|Below|Above) your usual \d/)
        const trend = tile.locator('[data-trend]')
        assert.include(['up', 'down', 'flat'], (await trend.getAttribute('data-trend'))!, key)
        assert.match((await trend.textContent())!, /[↑↓→]\s*Trend:\s*(improving|declining|stable|increasing|decreasing) · 7-day average/)
      }

      const freshness = page.getByTestId('freshness')
      assert.equal((await freshness.textContent())!.replace(/\s+/g, ' ').trim(), 'Up to date Last night synced 3 min ago')

      await finishPage(assert, opened, `overview-tiles-${width}`)
    })
    .timeout(60_000)

  test('the range control switches presets and a custom range; the axis stays apart at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openOverview(width, 'days=7')
      const { page } = opened
      const heading = page.getByTestId('range-heading')
      assert.equal((await heading.textContent())!.replace(/\s+/g, ' ').trim(), '9 Mar 2026 – 15 Mar 2026 (7 days)')

      await page.getByLabel('90 days').check()
      await page.waitForURL(/days=90/)
      await heading.getByText('16 Dec 2025 – 15 Mar 2026').waitFor()
      const hrv = page.locator('figure[data-chart="hrv_rmssd"]')
      await page.locator('figure[data-chart="hrv_rmssd"][data-points="90"][data-x-ticks]').waitFor()
      assertApart(assert, JSON.parse((await hrv.getAttribute('data-x-ticks'))!), `90 days at ${width}px`)

      // A custom range: a wrong order is refused in place, a right one changes the window.
      await page.getByLabel('Custom').check()
      await page.getByLabel('From', { exact: true }).fill('2026-02-20')
      await page.getByLabel('To', { exact: true }).fill('2026-02-01')
      await page.getByRole('button', { name: 'Show range' }).click()
      await page.getByRole('alert').getByText('The end date must be on or after the start date.').waitFor()
      assert.match(page.url(), /days=90/)

      await page.getByLabel('From', { exact: true }).fill('2025-11-20')
      await page.getByLabel('To', { exact: true }).fill('2026-02-28')
      await page.getByRole('button', { name: 'Show range' }).click()
      await page.waitForURL(/from=2025-11-20&to=2026-02-28/)
      await heading.getByText('20 Nov 2025 – 28 Feb 2026').waitFor()
      assert.include(await heading.textContent(), '(101 days)')
      assert.isTrue(await page.getByLabel('Custom').isChecked())
      await page.locator('figure[data-chart="hrv_rmssd"][data-points="101"][data-x-ticks]').waitFor()
      const boxes: TickBox[] = JSON.parse((await hrv.getAttribute('data-x-ticks'))!)
      assertApart(assert, boxes, `custom range at ${width}px: ${JSON.stringify(boxes)}`)
      // Over three months the axis names months, the first with its year.
      assert.isAtLeast(boxes.length, 2)
      for (const box of boxes) assert.match(box.text, /^[A-Z][a-z]{2}( \d{4})?$/, JSON.stringify(boxes))
      assert.equal(boxes[0].text, 'Dec 2025')
      // Longer than three years: refused in place as well.
      await page.getByLabel('From', { exact: true }).fill('2020-01-01')
      await page.getByRole('button', { name: 'Show range' }).click()
      await page.getByRole('alert').getByText('A custom range covers at most 1096 days.').waitFor()
      assert.match(page.url(), /from=2025-11-20/)

      await finishPage(assert, opened, `overview-custom-${width}`)
    })
    .timeout(90_000)

  test('pointing at a chart or moving along it by keyboard shows every metric on that day at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const id = await userRow()
      const opened = await openOverview(width)
      const { page } = opened
      const figure = page.locator('figure[data-chart="sleep_score"]')
      const box = figure.getByTestId('chart-box')
      await box.locator('canvas').waitFor()
      await box.scrollIntoViewIfNeeded()
      const area = (await box.boundingBox())!
      await page.mouse.move(area.x + area.width * 0.6, area.y + area.height * 0.4)
      const readout = figure.getByTestId('day-readout')
      await readout.waitFor()
      const rows = await readout.locator('dt').allTextContents()
      assert.deepEqual(rows, ['HRV (RMSSD)', 'Sleep score', 'Resting heart rate', 'Training load', 'Steps'])

      // The readout names a day and each metric's stored value that day.
      const dateText = (await readout.locator('.chart-tip-date').textContent())!.trim()
      const date = new Date(`${dateText.slice(4)} UTC`).toISOString().slice(0, 10)
      const sleep = await SleepRecord.query().where('userId', id).where('date', date).firstOrFail()
      const recharge = await NightlyRecharge.query().where('userId', id).where('date', date).firstOrFail()
      const sleepText = (await readout.locator('dd[data-metric="sleep_score"]').textContent())!.trim()
      assert.equal(sleepText, String(sleep.sleepScore))
      assert.equal((await readout.locator('dd[data-metric="resting_hr"]').textContent())!.trim(), `${recharge.heartRateAvg} bpm`)
      for (const dd of await readout.locator('dd').all()) assert.notEqual((await dd.textContent())!.trim(), '')

      // Every chart draws the day's cursor; moving off the chart hides the readout.
      await page.mouse.move(area.x + area.width / 2, area.y - 60)
      await readout.waitFor({ state: 'detached' })

      // Keyboard: focus the chart, End goes to the last day, the arrows step through days.
      await box.focus()
      await page.keyboard.press('End')
      await readout.waitFor()
      assert.equal((await readout.locator('.chart-tip-date').textContent())!.trim(), 'Sun 15 Mar 2026')
      await page.keyboard.press('ArrowLeft')
      await readout.getByText('Sat 14 Mar 2026').waitFor()
      // Escape hides the readout; keyboard moves are announced in a polite live region.
      await page.keyboard.press('Escape')
      await readout.waitFor({ state: 'detached' })
      const live = figure.locator('[aria-live="polite"]')
      await page.keyboard.press('Home')
      assert.match((await live.textContent())!, /^\w{3} \d{1,2} \w{3} 2026: HRV \(RMSSD\) /)

      await finishPage(assert, opened, `overview-readout-${width}`)
    })
    .timeout(60_000)

  test('an unusual night is marked on its chart and explained, and insights carry badges at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const opened = await openOverview(width)
      const { page } = opened
      const figure = page.locator('figure[data-chart="hrv_rmssd"]')
      const notes = figure.getByTestId('anomalies')
      await notes.waitFor()
      // A marker is drawn on the chart at the day, inside the plot.
      await page.locator('figure[data-chart="hrv_rmssd"][data-markers]').waitFor()
      const markers: Array<{ date: string; x: number; y: number }> = JSON.parse((await figure.getAttribute('data-markers'))!)
      const marker = markers.find((m) => m.date === ODD_DAY)
      const canvas = (await figure.locator('canvas').boundingBox())!
      assert.exists(marker, JSON.stringify(markers))
      assert.isAbove(marker!.x, 0)
      assert.isBelow(marker!.x, canvas.width)
      assert.isAbove(marker!.y, 0)
      assert.isBelow(marker!.y, canvas.height)
      assert.equal(markers.length, await notes.locator('li').count())
      const item = notes.locator('li', { hasText: '10 Mar 2026' })
      assert.match((await item.textContent())!.replace(/\s+/g, ' ').trim(), /^Far out 10 Mar 2026: 3 ms, far below the usual \d+–\d+ ms\.$/)
      assert.include(await page.getByTestId('chart-legend').textContent(), 'further outside the band than 1.5 times its height')
      await figure.locator('details summary').click()
      await figure.locator('tr', { hasText: ODD_DAY }).getByText('critical').waitFor()

      // The readout flags the day too.
      const box = figure.getByTestId('chart-box')
      await box.focus()
      await page.keyboard.press('End')
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft')
      const readout = figure.getByTestId('day-readout')
      await readout.getByText('Tue 10 Mar 2026').waitFor()
      await readout.locator('dd[data-metric="hrv_rmssd"]').getByText('unusual').waitFor()

      const insights = page.getByTestId('insights')
      const observations = insights.getByTestId('observation')
      assert.isAtLeast(await observations.count(), 1)
      for (const observation of await observations.all()) {
        assert.match((await observation.locator('[data-badge="priority"]').textContent())!, /^(Critical|High|Medium|Low|Info|Positive)$/)
        assert.match((await observation.locator('[data-badge="category"]').textContent())!, /^(Recovery|Sleep|Training|Anomaly|Onboarding|Trend)$/)
      }
      const suggestions = insights.getByTestId('suggestion')
      assert.isAtLeast(await suggestions.count(), 1)
      assert.match((await suggestions.first().locator('[data-badge]').textContent())!, /^\d+% confident$/)
      await finishPage(assert, opened)
    })
    .timeout(60_000)

  test('the dark theme follows prefers-color-scheme, charts included, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const { page, context, problems } = await openPage(synced.browser, width, 900)
      await page.emulateMedia({ colorScheme: 'dark' })
      await login(page)
      await page.goto(`/admin/overview?user=${userId}&days=30`)
      await page.getByTestId('tiles').waitFor()
      const colours = () =>
        page.evaluate<{ body: string; tile: string; text: string; chartLine: string }>(`(() => {
          const css = (element) => getComputedStyle(element)
          return {
            body: css(document.documentElement).backgroundColor,
            tile: css(document.querySelector('[data-tile]')).backgroundColor,
            text: css(document.querySelector('.tile-value')).color,
            chartLine: css(document.documentElement).getPropertyValue('--chart-line').trim(),
          }
        })()`)
      const dark = await colours()
      assert.equal(dark.body, 'rgb(17, 19, 24)')
      assert.equal(dark.tile, 'rgb(26, 29, 36)')
      assert.equal(dark.text, 'rgb(232, 234, 238)')
      assert.equal(dark.chartLine, '#7aa7ff')
      await screenshot(page, `overview-dark-${width}`)

      // Switching the system theme restyles the page and redraws the charts without a reload.
      await page.emulateMedia({ colorScheme: 'light' })
      const light = await colours()
      assert.equal(light.body, 'rgb(246, 247, 249)')
      assert.equal(light.tile, 'rgb(255, 255, 255)')
      assert.equal(light.chartLine, '#2563eb')
      assert.deepEqual(problems, [])
      await context.close()
    })
    .timeout(60_000)
})

import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import ApiKey from '#models/api_key'
import SyncRun from '#models/sync_run'
import User from '#models/user'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { ApiKeyService } from '#services/auth/api_key_service'
import { DATA_TYPE_LABELS } from '#services/records/data_types'
import { createUser, daysAgo } from '#tests/helpers/fixtures'
import { finishPage, horizontalOverflow, login, openPage, useAdminBrowser } from '#tests/browser/helpers'

/** A user with sleep on three days, two exercises on one day and one on another, and two sync runs. */
async function seededUser(externalId: string) {
  const user = await createUser(externalId)
  for (const n of [0, 3, 40]) await SleepRecordFactory.merge({ userId: user.id, date: daysAgo(n) }).create()
  await ExerciseFactory.merge([
    { userId: user.id, startDate: daysAgo(5) },
    { userId: user.id, startDate: daysAgo(5) },
    { userId: user.id, startDate: daysAgo(9) },
  ]).createMany(3)
  const started = DateTime.now().minus({ hours: 2 })
  await SyncRun.create({ userId: user.id, trigger: 'scheduler', status: 'partial', days: 28, providerCalls: 20, startedAt: started, finishedAt: started.plus({ seconds: 3 }) })
  await SyncRun.create({ userId: user.id, trigger: 'admin', status: 'success', days: 28, providerCalls: 24, startedAt: started.plus({ hours: 1 }), finishedAt: started.plus({ hours: 1, seconds: 2 }) })
  return user
}

/** The per-user page: display name, coverage heat-map, runs, takeout and the typed delete confirmation. */
test.group('Admin UI in Chromium | per-user page', (group) => {
  const browser = useAdminBrowser(group)

  test('the display name is edited on the user page and shown there and on the users page, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const user = await createUser('9021834')
      const opened = await openPage(browser(), width, 900)
      const { page } = opened
      await login(page)
      await page.goto('/admin/users')
      await page.getByRole('link', { name: 'Details of 9021834' }).click()
      await page.waitForURL('**/admin/users/9021834')
      assert.equal((await page.getByTestId('display-name').textContent())!.trim(), '—')

      await page.getByLabel('Display name').fill("  Anna's watch ")
      await page.getByRole('button', { name: 'Save name' }).click()
      await page.getByRole('status').getByText(`Display name set to "Anna's watch".`).waitFor()
      assert.equal((await page.getByTestId('display-name').textContent())!.trim(), "Anna's watch")
      assert.equal((await page.getByRole('heading', { level: 1 }).textContent())!.trim(), "Anna's watch")
      assert.equal((await page.getByTestId('user-id').textContent())!.trim(), '9021834')
      await user.refresh()
      assert.equal(user.displayName, "Anna's watch")
      assert.isAtMost(await horizontalOverflow(page), 0)

      await page.getByRole('link', { name: '← Users' }).click()
      const card = page.locator('[data-user="9021834"]')
      assert.equal((await card.getByTestId('display-name').textContent())!.trim(), "Anna's watch")
      assert.isAtMost(await horizontalOverflow(page), 0)

      // Emptying the field removes the name.
      await page.goto('/admin/users/9021834')
      await page.getByLabel('Display name').fill('')
      await page.getByRole('button', { name: 'Save name' }).click()
      await page.getByRole('status').getByText('Display name removed.').waitFor()
      await user.refresh()
      assert.isNull(user.displayName)
      await finishPage(assert, opened)
    })
    .timeout(60_000)

  test('the heat-map marks exactly the seeded days, runs are listed, a key is revoked in place and the takeout downloads a ZIP, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      await seededUser('covered-user')
      const { apiKey } = await (await app.container.make(ApiKeyService)).create('phone', 'covered-user')
      const opened = await openPage(browser(), width, 900)
      const { page } = opened
      await login(page)
      await page.goto('/admin/users/covered-user')
      const coverage = page.getByTestId('coverage')

      const sleep = coverage.locator('figure[data-source="sleep"]')
      await sleep.waitFor()
      assert.equal(await sleep.locator('rect').count(), 365)
      const marked = async (source: string) =>
        coverage.locator(`figure[data-source="${source}"] rect:not(.l0)`).evaluateAll((cells) =>
          cells.map((cell) => [cell.getAttribute('data-date'), Number(cell.getAttribute('data-count')), cell.getAttribute('class')])
        )
      assert.sameDeepMembers(await marked('sleep'), [daysAgo(40), daysAgo(3), daysAgo(0)].map((d) => [d, 1, 'l3']))
      assert.sameDeepMembers(await marked('exercises'), [
        [daysAgo(9), 1, 'l2'],
        [daysAgo(5), 2, 'l3'],
      ])
      assert.include(await sleep.locator('figcaption').textContent(), 'data on 3 of 365 days')
      assert.equal(await sleep.locator('svg').getAttribute('aria-label'), `Sleep: data on 3 of 365 days, ${daysAgo(364)} to ${daysAgo(0)}`)
      // Types without data in the window are named once instead of drawn empty.
      assert.equal(await coverage.locator('figure').count(), 2)
      assert.include(await page.getByTestId('coverage-empty').textContent(), DATA_TYPE_LABELS.recharge)

      const runs = page.getByTestId('sync-runs').locator('tbody tr')
      assert.equal(await runs.count(), 2)
      assert.include(await runs.first().textContent(), 'success')
      assert.include(await runs.nth(1).textContent(), 'partial')

      // The user's key is revoked only after the confirmation, and then shows as revoked.
      const key = page.getByTestId('user-keys').locator(`tr[data-prefix="${apiKey.prefix}"]`)
      await key.getByRole('button', { name: 'Revoke phone' }).click()
      assert.isNull((await ApiKey.findOrFail(apiKey.id)).revokedAt)
      await key.getByRole('button', { name: 'Yes, revoke' }).click()
      await key.getByText('revoked', { exact: true }).waitFor()
      assert.isNotNull((await ApiKey.findOrFail(apiKey.id)).revokedAt)

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('takeout-link').click()])
      assert.match(download.suggestedFilename(), /\.zip$/)
      const bytes = await readFile((await download.path())!)
      assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK')
      await finishPage(assert, opened)
    })
    .timeout(60_000)

  test('deleting asks for the user id typed exactly, then removes the user, at {$self} px')
    .with([1280, 375])
    .run(async ({ assert }, width) => {
      const user = await seededUser('doomed-user')
      const opened = await openPage(browser(), width, 900)
      const { page } = opened
      await login(page)
      await page.goto('/admin/users/doomed-user')
      await page.getByRole('button', { name: 'Delete user…' }).click()
      const dialog = page.getByTestId('delete-dialog')
      await dialog.waitFor()
      const confirm = dialog.getByRole('button', { name: 'Delete doomed-user' })
      assert.isTrue(await confirm.isDisabled())
      for (const typed of ['doomed', 'Doomed-user', 'doomed-user2']) {
        await dialog.getByLabel('Type doomed-user to confirm').fill(typed)
        assert.isTrue(await confirm.isDisabled(), typed)
      }
      // Cancel keeps everything.
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
      assert.isNotNull(await User.find(user.id))
      assert.isAtMost(await horizontalOverflow(page), 0)

      await page.getByRole('button', { name: 'Delete user…' }).click()
      await dialog.getByLabel('Type doomed-user to confirm').fill('doomed-user')
      await confirm.click()
      await page.waitForURL('**/admin/users')
      await page.getByRole('status').getByText('User doomed-user and all their stored data were deleted.').waitFor()
      assert.equal(await page.locator('[data-user="doomed-user"]').count(), 0)
      assert.isNull(await User.find(user.id))
      assert.equal(await SyncRun.query().where('userId', user.id).count('* as n').first().then((r) => Number(r!.$extras.n)), 0)
      await finishPage(assert, opened)
    })
    .timeout(60_000)
})

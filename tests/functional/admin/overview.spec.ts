import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { createUser, daysAgo } from '#tests/helpers/fixtures'
import { loggedInAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'

test.group('Admin UI | overview range and tiles', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('a custom from/to range selects exactly those days, both inclusive', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('ranged')
    for (let i = 0; i < 20; i++) await NightlyRechargeFactory.merge({ userId: user.id, date: daysAgo(i), hrvAvg: 50 + i }).create()
    const page = await browser.visit(`/admin/overview?user=ranged&from=${daysAgo(12)}&to=${daysAgo(3)}`)
    const props = page.page!.props
    assert.deepEqual(props.custom, { from: daysAgo(12), to: daysAgo(3) })
    assert.equal(props.data.days, 10)
    assert.isTrue(props.data.custom)
    const hrv = props.data.charts.find((c: any) => c.key === 'hrv_rmssd')
    assert.deepEqual(hrv.points.map((p: any) => p.date), Array.from({ length: 10 }, (_, i) => daysAgo(12 - i)))
    assert.deepEqual(hrv.anomalies, [])

    // The tiles show the latest values whatever the range.
    const tile = props.data.tiles.find((t: any) => t.key === 'hrv_rmssd')
    assert.equal(tile.value, 50)
    assert.equal(tile.date, daysAgo(0))
    assert.deepEqual(props.data.tiles.map((t: any) => t.key), ['sleep_score', 'hrv_rmssd', 'resting_hr', 'training_load_ratio'])
    assert.isNull(props.data.tiles.find((t: any) => t.key === 'sleep_score').value)
    assert.equal(props.data.freshness.today, daysAgo(0))
  })

  test('a custom range out of order, too long, half given or not a date is refused')
    .with([
      `from=${daysAgo(3)}&to=${daysAgo(5)}`,
      'from=2020-01-01&to=2026-01-01',
      `from=${daysAgo(3)}`,
      `to=${daysAgo(3)}`,
      'from=2026-02-30&to=2026-03-02',
      'from=yesterday&to=today',
    ])
    .run(async ({ assert }, query) => {
      const browser = await loggedInAdmin()
      await createUser('ranged')
      const response = await browser.get(`/admin/overview?user=ranged&${query}`)
      assert.equal(response.status, 302, query)
    })
})

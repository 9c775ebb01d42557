import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { SYNC_TYPES } from '#services/sync/sync_types'
import {
  completeToken,
  shiftDate,
  freshDatabase,
  startSimulatorContext,
  type SimulatorContext,
} from '#tests/functional/sync/simulator_context'

/** Types with exactly one row per calendar day for a complete simulated user. */
const DAILY = ['sleep_records', 'nightly_recharges', 'daily_activities', 'cardio_loads', 'heart_rate_days']

test.group('Sync | sliding window', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-01-01')
    const cleanup = await freshDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  test('a 28-day window sliding forward 10 times over 120 days keeps exactly 120 days', async ({ client, assert }) => {
    const token = completeToken('slider')
    const first = '2026-01-01'
    const trigger = () => client.post('/api/v1/users/slider/sync/trigger?days=28').header('X-Provider-Token', token)
    ;(await trigger()).assertStatus(200)

    let today = first
    for (const step of [9, 9, 9, 9, 9, 9, 9, 9, 10, 10]) {
      today = shiftDate(today, step)
      ctx.setToday(today)
      ;(await trigger()).assertStatus(200)
    }
    assert.equal(today, shiftDate(first, 92))

    const user = await User.findByOrFail('externalId', 'slider')
    const from = shiftDate(first, -27)
    for (const table of DAILY) {
      const rows = await db.from(table).where('user_id', user.id).orderBy('date')
      const dates = rows.map((r) => r.date)
      assert.lengthOf(dates, 120, table)
      assert.lengthOf(new Set(dates), 120, table)
      assert.equal(dates[0], from, table)
      assert.equal(dates.at(-1), today, table)
    }
    // No duplicates on any natural key, in any table.
    for (const type of SYNC_TYPES) {
      const columns = type.naturalKey
      const [{ n }] = await db.from(type.table).where('user_id', user.id).count('* as n')
      const distinct = await db.from(type.table).where('user_id', user.id).distinct(columns)
      assert.equal(distinct.length, Number(n), type.table)
    }
    // History older than Polar's window is kept.
    const oldest = await db.from('sleep_records').where({ user_id: user.id, date: from }).first()
    assert.isNotNull(oldest)
  }).timeout(120_000)
})

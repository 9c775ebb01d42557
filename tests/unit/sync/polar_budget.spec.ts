import { test } from '@japa/runner'
import {
  CALLS_PER_FULL_SYNC,
  POLAR_WINDOWS,
  SCHEDULE_PLANNING_SHARE,
  WORK_SHARES,
  capOf,
  effectiveIntervalMs,
  estimatedUsage,
  expectedSyncCalls,
  formulaLimits,
  mergeReading,
  requiredIntervalMs,
  windowKey,
  windowResetsAt,
  type BudgetWindow,
} from '#services/sync/polar_budget'
import { SYNC_TYPES } from '#services/sync/sync_types'

const MINUTE = 60_000
const DAY = 86_400_000
const T0 = Date.UTC(2026, 2, 15, 12)

/** A short-window record read at T0 with `usage` of `limit`, resetting in 600 s. */
const known = (overrides: Partial<BudgetWindow> = {}): BudgetWindow => ({
  key: 'c1',
  resetsAt: T0 + 600_000,
  limit: 500,
  usage: 10,
  drift: 0,
  observedAt: T0,
  ...overrides,
})

test.group('Sync | Polar budget arithmetic', () => {
  test("the formula gives reference §11's limits for U registered users", ({ assert }) => {
    assert.deepEqual(formulaLimits(0), [500, 5000])
    assert.deepEqual(formulaLimits(1), [520, 5100])
    assert.deepEqual(formulaLimits(10_000), [200_500, 1_005_000])
  })

  test('classes rank events over back-fills and manual syncs over scheduled syncs', ({ assert }) => {
    assert.equal(WORK_SHARES.event, 1)
    assert.isAbove(WORK_SHARES.event, WORK_SHARES.manual)
    assert.equal(WORK_SHARES.backfill, WORK_SHARES.manual)
    assert.isAbove(WORK_SHARES.manual, WORK_SHARES.scheduled)
    assert.isBelow(SCHEDULE_PLANNING_SHARE, WORK_SHARES.scheduled)
    assert.equal(capOf(60, 'event'), 60)
    assert.equal(capOf(60, 'manual'), 57)
    assert.equal(capOf(60, 'scheduled'), 54)
    assert.equal(capOf(5100, 'scheduled'), 4590)
  })

  test('a full sync reserves one call per type and 28-day chunk', ({ assert }) => {
    assert.equal(CALLS_PER_FULL_SYNC, SYNC_TYPES.filter((type) => type.from === null).length)
    assert.equal(expectedSyncCalls(28), 13)
    assert.equal(expectedSyncCalls(1), 13)
    assert.equal(expectedSyncCalls(29), 26)
    assert.equal(expectedSyncCalls(90), 52)
  })

  test('window keys: the clock window without a reading, the known key until its reset, then keys derived from it', ({ assert }) => {
    const shortMs = POLAR_WINDOWS[0].seconds * 1000
    assert.equal(windowKey(null, 0, T0), `c${Math.floor(T0 / shortMs)}`)
    assert.equal(windowResetsAt(null, 0, T0), (Math.floor(T0 / shortMs) + 1) * shortMs)

    const window = known()
    assert.equal(windowKey(window, 0, T0 + 599_999), 'c1')
    assert.equal(windowResetsAt(window, 0, T0 + 1000), window.resetsAt)
    // Every process derives the same key for the windows after it, without a new reading.
    assert.equal(windowKey(window, 0, window.resetsAt), `r${window.resetsAt}.0`)
    assert.equal(windowResetsAt(window, 0, window.resetsAt), window.resetsAt + shortMs)
    assert.equal(windowKey(window, 0, window.resetsAt + shortMs + 1), `r${window.resetsAt}.1`)
  })

  test('usage is the shared counter plus the drift of its own window only', ({ assert }) => {
    const window = known({ drift: 40 })
    assert.equal(estimatedUsage(window, 'c1', 12), 52)
    assert.equal(estimatedUsage(window, `r${window.resetsAt}.0`, 12), 12)
    assert.equal(estimatedUsage(null, 'c9', 3), 3)
  })

  test('a reading in the same window grows the drift, follows the limit and believes an earlier reset', ({ assert }) => {
    const window = known({ drift: 5 })
    // Polar counted 30, our counter 20: 10 calls were sent without being counted.
    const grown = mergeReading(window, { usage: 30, limit: 520, resetSeconds: 590 }, T0 + 10_000, 'c1', 20)
    assert.isTrue(grown.changed)
    assert.equal(grown.window.drift, 10)
    assert.equal(grown.window.limit, 520)
    assert.equal(grown.window.resetsAt, window.resetsAt)

    // Calls still in flight make Polar's count lower than ours: nothing to write.
    const steady = mergeReading(window, { usage: 18, limit: 500, resetSeconds: 590 }, T0 + 10_000, 'c1', 20)
    assert.isFalse(steady.changed)
    assert.equal(steady.window.drift, 5)

    // Rounding of RateLimit-Reset does not move the reset; a clearly earlier one does.
    assert.isFalse(mergeReading(window, { usage: 1, limit: 500, resetSeconds: 591 }, T0 + 10_000, 'c1', 20).changed)
    const earlier = mergeReading(window, { usage: 1, limit: 500, resetSeconds: 60 }, T0 + 10_000, 'c1', 20)
    assert.isTrue(earlier.changed)
    assert.equal(earlier.window.resetsAt, T0 + 70_000)
  })

  test('a reading after the reset starts the next window under the derived key', ({ assert }) => {
    const window = known({ drift: 50 })
    const now = window.resetsAt + 5_000
    const key = windowKey(window, 0, now)
    const next = mergeReading(window, { usage: 3, limit: 500, resetSeconds: 895 }, now, key, 3)
    assert.isTrue(next.changed)
    assert.deepEqual(next.window, { key, resetsAt: now + 895_000, limit: 500, usage: 3, drift: 0, observedAt: now })
  })

  test('10 000 users without webhooks: the hourly interval stretches to what the daily budget allows', ({ assert }) => {
    const users = 10_000
    const limits = formulaLimits(users)
    const required = requiredIntervalMs(users, limits)
    // users × 13 calls per interval ≤ 80 % of 5 000 + 100·U per day.
    const perDay = (DAY / required) * users * CALLS_PER_FULL_SYNC
    assert.isAtMost(perDay, SCHEDULE_PLANNING_SHARE * limits[1] + 1)
    assert.closeTo(required / MINUTE, (users * CALLS_PER_FULL_SYNC * 1440) / (0.8 * 1_005_000), 0.01)

    const effective = effectiveIntervalMs(60 * MINUTE, required)
    assert.isAtLeast(effective, required)
    assert.equal(effective, 240 * MINUTE)
    // The 15-minute window is never the tighter one with Polar's formula.
    assert.isBelow((users * CALLS_PER_FULL_SYNC * 15 * MINUTE) / effective, SCHEDULE_PLANNING_SHARE * limits[0])
  })

  test('up to 17 users keep an hourly interval; beyond, it grows in whole hours towards 234 minutes', ({ assert }) => {
    assert.equal(requiredIntervalMs(0, formulaLimits(0)), 0)
    // 17 users × 13 calls × 24 = 5 304 ≤ 0.8 × 6 700; 18 users need 5 616 > 0.8 × 6 800.
    assert.equal(effectiveIntervalMs(60 * MINUTE, requiredIntervalMs(17, formulaLimits(17))), 60 * MINUTE)
    assert.equal(effectiveIntervalMs(60 * MINUTE, requiredIntervalMs(18, formulaLimits(18))), 120 * MINUTE)
    assert.equal(requiredIntervalMs(100, formulaLimits(100)), 156 * MINUTE)
    assert.equal(effectiveIntervalMs(60 * MINUTE, 156 * MINUTE), 180 * MINUTE)
    assert.isBelow(requiredIntervalMs(1_000_000, formulaLimits(1_000_000)), 234 * MINUTE)
    // A long window of 200 calls (scaled down) for 12 users: 156 calls per interval need 0.975 days.
    const required = requiredIntervalMs(12, [60, 200])
    assert.equal(required, Math.ceil((156 * DAY) / 160))
    assert.equal(effectiveIntervalMs(60 * MINUTE, required), 1440 * MINUTE)
    // The reconciliation interval of a day is stretched in whole days.
    assert.equal(effectiveIntervalMs(DAY, 1.5 * DAY), 2 * DAY)
    assert.equal(effectiveIntervalMs(DAY, requiredIntervalMs(1_000_000, formulaLimits(1_000_000))), DAY)
  })
})

import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import db from '@adonisjs/lucid/services/db'
import type { Worker } from '@adonisjs/queue'
import { DateTime } from 'luxon'
import SyncStatusCommand from '#commands/sync_status'
import FailedJob from '#models/failed_job'
import SyncRun from '#models/sync_run'
import User from '#models/user'
import PolarEventJob from '#jobs/polar_event_job'
import SyncUserJob from '#jobs/sync_user_job'
import { PolarBudgetExhaustedError } from '#services/polar/errors/polar_budget_exhausted_error'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { createQueueWorker } from '#services/sync/background_runner'
import { CALLS_PER_FULL_SYNC, SCHEDULE_PLANNING_SHARE, capOf } from '#services/sync/polar_budget'
import { PolarBudgetService } from '#services/sync/polar_budget_service'
import { PolarEventService } from '#services/sync/polar_event_service'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import { flowClock } from '#tests/helpers/clock'
import {
  completeToken,
  eventually,
  freshDatabase,
  shiftDate,
  startSimulatorContext,
  type SimulatorContext,
} from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
/** The scheduler test's day: its interval slot is not one another spec already scheduled (Redis keeps locks between files). */
const SCHEDULED_DAY = '2026-04-01'
const DAY_MS = 86_400_000

/**
 * The scheduler with SYNC_ENABLED forced on (the test runner sets SYNC_ENABLED=false) and every
 * job due at once instead of spread over the interval: the worst case for the budget.
 */
class AllAtOnceScheduler extends SyncSchedulerService {
  enabled() {
    return true
  }

  protected spacingMs() {
    return 0
  }
}

/** A user with a stored token, bound to the token's simulated Polar account. */
async function connectedUser(ctx: SimulatorContext, externalId: string) {
  const token = completeToken(externalId)
  const user = await User.create({ externalId, isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
  await (await app.container.make(ProviderTokenService)).store(user, token)
  return user
}

/** Spends `count` requests of the client's budget outside HRVault (another tool with the same client). */
async function spendElsewhere(ctx: SimulatorContext, count: number) {
  for (let done = 0; done < count; done++) {
    const response = await fetch(`${ctx.sim.url}/v3/users/sleep`, { headers: { Authorization: 'Bearer elsewhere' } })
    await response.arrayBuffer()
  }
}

const refused = (ctx: SimulatorContext) => ctx.sim.requests.filter((r) => r.status === 429)

test.group('Sync | Polar budget', (group) => {
  let ctx: SimulatorContext | null = null
  let worker: Worker | null = null
  let cleanup: (() => Promise<void>) | null = null
  group.each.setup(() => async () => {
    await worker?.stop()
    worker = null
    app.container.restore(SyncSchedulerService)
    await ctx?.close()
    ctx = null
    await cleanup?.()
    cleanup = null
  })

  test('scheduled syncs needing more than both windows wait for their resets: no 429, everyone stored', async ({ assert }) => {
    // Scaled down: 60 calls per 2 s and 200 per 10 s (nobody registered, so no per-user increments).
    // A sync is 13 calls (no exercises), except for two users who train and need exercise details.
    ctx = await startSimulatorContext(SCHEDULED_DAY, {
      rateLimit: { short: 60, long: 200, shortWindowSeconds: 2, longWindowSeconds: 10 },
      defaults: { trainingDays: [] },
      profiles: { [completeToken('budget-00')]: { trainingDays: [1] }, [completeToken('budget-07')]: { trainingDays: [3] } },
    })
    cleanup = await freshDatabase()
    // The budget's windows reset on the app's clock: let it run like the simulator's.
    flowClock(`${SCHEDULED_DAY}T12:00:00`)
    const count = 16
    const users = []
    for (let i = 0; i < count; i++) users.push(await connectedUser(ctx, `budget-${String(i).padStart(2, '0')}`))

    app.container.swap(SyncSchedulerService, () => app.container.make(AllAtOnceScheduler))
    const tick = await (await app.container.make(SyncSchedulerService)).tick()
    assert.equal(tick.outcome, 'scheduled')
    assert.lengthOf(tick.jobs, count)
    assert.deepEqual(new Set(tick.jobs.map((j) => j.delayMs)), new Set([0]))

    worker = await createQueueWorker(4)
    void worker.start(['default'])
    const ids = users.map((u) => u.id)
    await eventually(async () => {
      const done = await db.from('sync_runs').whereIn('user_id', ids).where('status', 'success').countDistinct('user_id as n')
      return Number(done[0].n) === count
    }, 90_000)

    // Polar never refused a call: neither window was overrun.
    assert.deepEqual(refused(ctx), [])
    // The work needed more than one long window (scheduled syncs stop at 90 % of 200)…
    const calls = ctx.sim.requests.length
    assert.isAbove(calls, capOf(200, 'scheduled'))
    // …so syncs were held back before sending and ran again after the reset, never as failures.
    const runs = await SyncRun.query().whereIn('userId', ids)
    const held = runs.filter((r) => r.status === 'rate_limited')
    assert.isAbove(held.length, 0)
    for (const run of held) assert.match(run.errors ?? '', /Polar budget of scheduled work/)
    assert.equal(await FailedJob.query().count('* as n').first().then((r) => Number(r?.$extras.n)), 0)

    // Every user's data is stored, the exercise details of those who train included.
    for (const user of users) {
      const [{ n }] = await db.from('daily_activities').where('user_id', user.id).count('* as n')
      assert.equal(Number(n), 28, user.externalId)
      const [{ nights }] = await db.from('sleep_records').where('user_id', user.id).count('* as nights')
      assert.equal(Number(nights), 28, user.externalId)
    }
    for (const trainee of [users[0], users[7]]) {
      const [{ n }] = await db.from('exercises').where('user_id', trainee.id).count('* as n')
      assert.isAbove(Number(n), 0, trainee.externalId)
    }
  }).timeout(120_000)

  test('webhook events are admitted while scheduled syncs are held back, and wait for the reset when the window is full', async ({ assert }) => {
    // A short window of 60 calls per 6 s; the long one out of reach.
    ctx = await startSimulatorContext(TODAY, { rateLimit: { short: 60, long: 1_000_000, shortWindowSeconds: 6 } })
    cleanup = await freshDatabase()
    flowClock(`${TODAY}T12:00:00`)
    const pushed = await connectedUser(ctx, 'pushed')
    const scheduled = await connectedUser(ctx, 'scheduled')
    const polarUserId = String(pushed.polarUserId)
    const budget = await app.container.make(PolarBudgetService)
    const events = await app.container.make(PolarEventService)

    // Another tool spent 41 calls; the first event (2 calls) reads Polar's count.
    await spendElsewhere(ctx, 41)
    await events.handle(pushed, { event: 'SLEEP', polarUserId, date: TODAY })
    const [short] = (await budget.budget()).windows
    assert.equal(short.used, 43)
    assert.equal(short.limit, 60)
    assert.equal(short.limitSource, 'polar')

    // 43 + 12 > 54 (90 %): a scheduled sync stops before its first call and is recorded as held back.
    const before = ctx.sim.requests.length
    const userSync = await app.container.make(UserSyncService)
    const outcome = await userSync.sync(scheduled, { trigger: 'scheduler' })
    assert.equal(outcome.status, 'rate_limited')
    assert.isTrue(outcome.deferred)
    assert.equal(outcome.providerCalls, 0)
    assert.isAtMost(outcome.retryAfterSeconds!, 7)
    assert.equal(ctx.sim.requests.length, before)

    // Events go on to the last call of the window, and their rows are stored.
    for (let day = 1; day <= 8; day++) {
      await events.handle(pushed, { event: 'SLEEP', polarUserId, date: shiftDate(TODAY, -day) })
    }
    await events.handle(pushed, { event: 'CONTINUOUS_HEART_RATE', polarUserId, date: TODAY })
    assert.equal((await budget.budget()).windows[0].used, 60)
    const [{ n }] = await db.from('sleep_records').where('user_id', pushed.id).count('* as n')
    assert.equal(Number(n), 9)

    // The window is full: an event sends nothing.
    const full = ctx.sim.requests.length
    const late = shiftDate(TODAY, -9)
    await assert.rejects(() => events.handle(pushed, { event: 'SLEEP', polarUserId, date: late }), PolarBudgetExhaustedError)
    assert.equal(ctx.sim.requests.length, full)

    // On the queue both dispatch themselves again for the reset, then run: deferred, never failed.
    await PolarEventJob.dispatch({ userId: pushed.id, event: 'SLEEP', polarUserId, date: late }).run()
    await SyncUserJob.dispatch({ userId: scheduled.id, trigger: 'scheduler' }).run()
    worker = await createQueueWorker(2)
    void worker.start(['default'])
    await eventually(() => db.from('sleep_records').where({ user_id: pushed.id, date: late }).first())
    await eventually(() => db.from('sync_runs').where({ user_id: scheduled.id, status: 'success' }).first())
    const runs = await SyncRun.query().where('userId', scheduled.id).orderBy('id')
    assert.deepEqual(
      runs.map((r) => r.status),
      ['rate_limited', 'rate_limited', 'success']
    )
    assert.deepEqual(
      runs.map((r) => r.providerCalls > 0),
      [false, false, true]
    )
    assert.lengthOf(ctx.sim.requests.filter((r) => r.path === `/v3/users/sleep/${late}`), 1)
    assert.equal(await FailedJob.query().count('* as n').first().then((r) => Number(r?.$extras.n)), 0)
    assert.deepEqual(refused(ctx), [])
  }).timeout(60_000)

  test('without webhooks, 10 000 connected users stretch the hourly interval and sync:status says so', async ({ assert }) => {
    ctx = await startSimulatorContext(TODAY)
    cleanup = await freshDatabase()
    const now = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
    const users = 10_000
    for (let from = 0; from < users; from += 500) {
      const rows = Array.from({ length: 500 }, (_, i) => ({
        external_id: `many-${from + i}`,
        is_active: true,
        data_version: 1,
        provider_token_encrypted: 'sealed',
        created_at: now,
        updated_at: now,
      }))
      await db.table('users').multiInsert(rows)
    }

    const plan = await (await app.container.make(SyncSchedulerService)).plan()
    assert.isFalse(plan.webhook)
    assert.equal(plan.users, users)
    // No Polar answer yet: the formula with U = 10 000.
    assert.equal(plan.limitSource, 'formula')
    assert.deepEqual(plan.limits, [200_500, 1_005_000])
    assert.equal(plan.configuredMs, 60 * 60_000)
    // U × 13 calls per interval within 80 % of 5 000 + 100·U per day: at least ~233 minutes.
    const needed = (users * CALLS_PER_FULL_SYNC * DAY_MS) / (SCHEDULE_PLANNING_SHARE * 1_005_000)
    assert.isAtLeast(plan.requiredMs, needed)
    assert.isAtLeast(plan.effectiveMs, needed)
    assert.isTrue(plan.stretched)
    assert.equal(plan.effectiveMs, 240 * 60_000)

    const command = await ace.create(SyncStatusCommand, [])
    command.ui.switchMode('raw')
    await command.exec()
    const printed = command.logger.getLogs().map((l) => l.message).join('\n')
    assert.include(printed, 'every 240 min')
    assert.include(printed, 'Interval stretched from 60 min (SYNC_INTERVAL_MINUTES): 10000 connected users need at least 233 min')
    assert.match(printed, /Polar long window \(1440 min\): 0 \/ 1005000 calls/)
    assert.match(printed, /Queue: \d+ pending, \d+ delayed, \d+ running/)
  }).timeout(60_000)
})

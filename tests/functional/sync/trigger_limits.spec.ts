import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import lock from '@adonisjs/lock/services/main'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { AdminSyncService } from '#services/admin/admin_sync_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { UserSyncService, userSyncLockKey } from '#services/sync/user_sync_service'
import { SYNC_TYPES } from '#services/sync/sync_types'
import { serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import {
  completeToken,
  freshDatabase,
  simulatorPerTest,
  startSimulatorContext,
  type SimulatorContext,
} from '#tests/functional/sync/simulator_context'

const triggerUrl = (userId: string, days?: number) =>
  `/api/v1/users/${userId}/sync/trigger${days === undefined ? '' : `?days=${days}`}`

/**
 * A user id not used before in this process: a spent cooldown is also remembered in the limiter's
 * process memory until its window resets, which truncating the tables does not undo.
 */
const freshId = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`

/** Rows stored for a user over every data table. */
async function storedRows(userId: number) {
  let total = 0
  for (const type of SYNC_TYPES) {
    const [{ n }] = await db.from(type.table).where('user_id', userId).count('* as n')
    total += Number(n)
  }
  return total
}

/** Sets a numeric env value (as the server reads it) and returns its undo. */
function withEnv(key: 'SYNC_DAYS' | 'SYNC_TRIGGER_COOLDOWN_SECONDS' | 'POLAR_MANUAL_BUDGET_PERCENT', value: number) {
  const previous = env.get(key)
  env.set(key, value)
  return () => {
    env.set(key, previous as number)
    if (previous === undefined) delete process.env[key]
  }
}

test.group('Sync | trigger window of user-scoped keys', (group) => {
  const context = simulatorPerTest(group)

  test('a user-scoped key asking for {$self} days gets a 422 naming days and SYNC_DAYS, and nothing is synced')
    .with([29, 365])
    .run(async ({ client, assert }, days) => {
      const { user, apiKey } = await userWithApiKey()
      const response = await client
        .post(triggerUrl(user.externalId, days))
        .header('X-API-Key', apiKey)
        .header('X-Provider-Token', completeToken(user.externalId))
      response.assertStatus(422)
      assert.match(response.header('content-type') ?? '', /application\/problem\+json/)
      const body = response.body()
      assert.equal(body.code, 'E_VALIDATION_ERROR')
      assert.lengthOf(body.errors, 1)
      assert.equal(body.errors[0].field, 'days')
      assert.equal(body.errors[0].rule, 'max')
      assert.match(body.errors[0].message, /\b28\b/)
      assert.lengthOf(context().sim.requests, 0)
      assert.isNull(await SyncRun.findBy('userId', user.id))
      assert.equal(await storedRows(user.id), 0)
    })

  test('a user-scoped key may sync SYNC_DAYS, and the limit follows SYNC_DAYS', async ({ client, assert, cleanup }) => {
    const { user, apiKey } = await userWithApiKey()
    const ok = await client
      .post(triggerUrl(user.externalId, 28))
      .header('X-API-Key', apiKey)
      .header('X-Provider-Token', completeToken(user.externalId))
    ok.assertStatus(200)
    assert.equal(ok.body().status, 'success')
    assert.equal((await SyncRun.findByOrFail('userId', user.id)).days, 28)

    cleanup(withEnv('SYNC_DAYS', 7))
    const refused = await client
      .post(triggerUrl(user.externalId, 8))
      .header('X-API-Key', apiKey)
      .header('X-Provider-Token', completeToken(user.externalId))
    refused.assertStatus(422)
    assert.equal(refused.body().errors[0].field, 'days')
    assert.match(refused.body().errors[0].message, /\b7\b/)
  })

  test('a service key may still sync 365 days', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const userId = freshId('yearly')
    const response = await client
      .post(triggerUrl(userId, 365))
      .header('X-API-Key', key)
      .header('X-Provider-Token', completeToken(userId))
    response.assertStatus(200)
    assert.equal(response.body().status, 'success')
    const user = await User.findByOrFail('externalId', userId)
    const run = await SyncRun.findByOrFail('userId', user.id)
    assert.equal(run.days, 365)
    // Continuous heart rate is fetched in 28-day ranges: 14 of them cover the year.
    assert.lengthOf(context().sim.requestsTo('heart_rate'), 14)
    assert.isAbove(await storedRows(user.id), 0)
  })
})

test.group('Sync | manual sync cooldown', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15')
    const cleanup = await freshDatabase()
    const restore = withEnv('SYNC_TRIGGER_COOLDOWN_SECONDS', 60)
    return async () => {
      restore()
      await ctx.close()
      await cleanup()
    }
  })

  test('a second manual sync of one user within the cooldown is a 429 with the real Retry-After', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const userId = freshId('cool')
    const started = Date.now()
    const first = await client.post(triggerUrl(userId, 3)).header('X-API-Key', key).header('X-Provider-Token', completeToken(userId))
    first.assertStatus(200)
    const callsBefore = ctx.sim.requests.length

    const second = await client.post(triggerUrl(userId, 3)).header('X-API-Key', key).header('X-Provider-Token', completeToken(userId))
    const elapsed = (Date.now() - started) / 1000
    second.assertStatus(429)
    assert.match(second.header('content-type') ?? '', /application\/problem\+json/)
    const body = second.body()
    assert.equal(body.code, 'E_SYNC_COOLDOWN')
    assert.equal(body.user_id, userId)
    const retryAfter = Number(second.header('retry-after'))
    assert.isAtMost(retryAfter, 60)
    assert.closeTo(retryAfter, 60 - elapsed, 2)
    assert.equal(body.retry_after, retryAfter)
    assert.equal(second.header('ratelimit-limit'), '1')
    assert.equal(second.header('ratelimit-remaining'), '0')
    assert.closeTo(Number(second.header('ratelimit-reset')), retryAfter, 1)

    // Refused before Polar: no call, no second run.
    assert.equal(ctx.sim.requests.length, callsBefore)
    const user = await User.findByOrFail('externalId', userId)
    const [{ n }] = await db.from('sync_runs').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), 1)

    // Per user: another user is synced at once with the same key.
    const other = freshId('cool_other')
    const otherResponse = await client.post(triggerUrl(other, 3)).header('X-API-Key', key).header('X-Provider-Token', completeToken(other))
    otherResponse.assertStatus(200)
  })

  test('a trigger while the user\'s sync is running is still a 409, not a cooldown 429', async ({ client, assert }) => {
    const key = await serviceApiKey()
    const userId = freshId('busy')
    const user = await User.create({ externalId: userId, isActive: true })
    const held = lock.createLock(userSyncLockKey(user.id), '20s')
    assert.isTrue(await held.acquireImmediately())
    try {
      const response = await client.post(triggerUrl(userId, 3)).header('X-API-Key', key).header('X-Provider-Token', completeToken(userId))
      response.assertStatus(409)
      assert.equal(response.body().code, 'E_SYNC_IN_PROGRESS')
    } finally {
      await held.release()
    }
    // The refused trigger did not start the cooldown.
    const after = await client.post(triggerUrl(userId, 3)).header('X-API-Key', key).header('X-Provider-Token', completeToken(userId))
    after.assertStatus(200)
  })

  test('the cooldown is per user whatever the key, and covers the admin Sync now', async ({ client, assert }) => {
    const { user, apiKey } = await userWithApiKey()
    const serviceKey = await serviceApiKey()
    const token = completeToken(user.externalId)
    ;(await client.post(triggerUrl(user.externalId, 3)).header('X-API-Key', apiKey).header('X-Provider-Token', token)).assertStatus(200)

    const viaService = await client.post(triggerUrl(user.externalId, 3)).header('X-API-Key', serviceKey).header('X-Provider-Token', token)
    viaService.assertStatus(429)
    assert.equal(viaService.body().code, 'E_SYNC_COOLDOWN')

    // The trigger stored the user's token, so Sync now would enqueue a job: refused instead.
    const admin = await app.container.make(AdminSyncService)
    const start = await admin.start(user.externalId)
    assert.equal(start.state, 'refused')
    if (start.state !== 'refused') return
    assert.equal(start.status, 429)
    assert.isAtMost(start.retryAfter, 60)
    assert.isAbove(start.retryAfter, 0)
    assert.lengthOf(await SyncRun.query().where('userId', user.id), 1)
  })

  test('a manual sync is accepted again once Retry-After has passed', async ({ client, assert, cleanup }) => {
    cleanup(withEnv('SYNC_TRIGGER_COOLDOWN_SECONDS', 1))
    const userId = freshId('brief')
    const fire = () => client.post(triggerUrl(userId, 2)).header('X-Provider-Token', completeToken(userId))
    ;(await fire()).assertStatus(200)
    const refused = await fire()
    refused.assertStatus(429)
    const retryAfter = Number(refused.header('retry-after'))
    assert.equal(retryAfter, 1)
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100))
    ;(await fire()).assertStatus(200)
  })

  test('a background sync is not subject to the cooldown', async ({ client, assert }) => {
    const userId = freshId('mixed')
    const token = completeToken(userId)
    ;(await client.post(triggerUrl(userId, 3)).header('X-Provider-Token', token)).assertStatus(200)
    const user = await User.findByOrFail('externalId', userId)
    const userSync = await app.container.make(UserSyncService)
    const background = await userSync.sync(user, { token, days: 3, trigger: 'scheduler' })
    assert.equal(background.status, 'success')
  })
})

test.group('Sync | Polar budget reserved for background sync', (group) => {
  let ctx: SimulatorContext
  const providerLimits = new ProviderRateLimitService()
  group.each.setup(async () => {
    // A short window of 1 000 requests (nobody registered), a long one out of reach.
    ctx = await startSimulatorContext('2026-03-15', { rateLimit: { short: 1000, long: 1_000_000 } })
    const cleanup = await freshDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  /** Spends `count` requests of the client's budget outside HRVault (another process, another tool). */
  async function spendElsewhere(count: number) {
    const call = async () => {
      const response = await fetch(`${ctx.sim.url}/v3/users/sleep`, { headers: { Authorization: 'Bearer elsewhere' } })
      await response.arrayBuffer()
    }
    for (let done = 0; done < count; done += 25) {
      await Promise.all(Array.from({ length: Math.min(25, count - done) }, call))
    }
  }

  test('over the reserve, manual syncs get 503 until the window resets while background sync runs', async ({ client, assert, cleanup }) => {
    const background = await User.create({ externalId: freshId('bg'), isActive: true })
    const token = completeToken(background.externalId)
    const userSync = await app.container.make(UserSyncService)

    // A background sync shares what Polar reported; far below 80 % nothing is reserved.
    const first = await userSync.sync(background, { token, trigger: 'scheduler' })
    assert.equal(first.status, 'success')
    const observed = await providerLimits.latestUsage()
    assert.isNotNull(observed)
    const limit = observed!.limit[0]
    assert.equal(limit, 1000)
    assert.equal(observed!.usage[0], first.providerCalls)
    assert.deepEqual(await providerLimits.reservedWindows(80), [])

    // Others spend the budget up to ~87 %, and the next background sync reports it.
    await spendElsewhere(870 - 2 * first.providerCalls)
    const second = await userSync.sync(background, { token, trigger: 'scheduler' })
    assert.equal(second.status, 'success')
    const usage = (await providerLimits.latestUsage())!.usage[0]
    assert.isAtLeast(usage, 800)
    assert.isBelow(usage, 900)

    // A manual trigger is refused before any call, with Polar's reset of the window as Retry-After.
    const callsBefore = ctx.sim.requests.length
    const manualId = freshId('manual')
    const key = await serviceApiKey()
    const response = await client
      .post(triggerUrl(manualId))
      .header('X-API-Key', key)
      .header('X-Provider-Token', completeToken(manualId))
    response.assertStatus(503)
    assert.match(response.header('content-type') ?? '', /application\/problem\+json/)
    const body = response.body()
    assert.equal(body.code, 'E_PROVIDER_BUDGET_RESERVED')
    assert.equal(body.provider, 'polar')
    const [window] = await providerLimits.reservedWindows(80)
    const retryAfter = Number(response.header('retry-after'))
    assert.closeTo(retryAfter, window.resetsIn, 2)
    assert.isAbove(retryAfter, 800)
    assert.isAtMost(retryAfter, 900)
    assert.equal(body.retry_after, retryAfter)
    assert.equal(ctx.sim.requests.length, callsBefore)
    assert.isNull(await User.findBy('externalId', manualId))

    // The admin Sync now is a manual sync too.
    const connected = await User.create({ externalId: freshId('admin'), isActive: true })
    await (await app.container.make(ProviderTokenService)).store(connected, completeToken(connected.externalId))
    const start = await (await app.container.make(AdminSyncService)).start(connected.externalId)
    assert.equal(start.state, 'refused')
    if (start.state === 'refused') assert.equal(start.status, 503)
    assert.equal(ctx.sim.requests.length, callsBefore)

    // The reserved share stays for background sync.
    const third = await userSync.sync(background, { token, trigger: 'scheduler' })
    assert.equal(third.status, 'success')
    assert.isAbove(third.providerCalls, 0)

    // A higher threshold lets the manual sync through.
    cleanup(withEnv('POLAR_MANUAL_BUDGET_PERCENT', 99))
    const allowed = await client.post(triggerUrl(manualId)).header('X-API-Key', key).header('X-Provider-Token', completeToken(manualId))
    allowed.assertStatus(200)
  })
})

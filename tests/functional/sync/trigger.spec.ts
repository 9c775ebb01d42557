import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { UserSyncService } from '#services/sync/user_sync_service'
import { SYNC_TYPES } from '#services/sync/sync_types'
import {
  completeToken,
  freshDatabase,
  snapshot,
  startSimulatorContext,
  type SimulatorContext,
} from '#tests/functional/sync/simulator_context'

const triggerUrl = (userId: string) => `/api/v1/users/${userId}/sync/trigger`

const SPEC_KEYS = [
  'sleep',
  'recharge',
  'activity',
  'exercises',
  'cardio_load',
  'sleepwise_alertness',
  'sleepwise_bedtime',
  'spo2',
  'ecg',
  'body_temperature',
  'skin_temperature',
]

/** A GET against the simulator with the user's token (the wire truth the rows are compared with). */
async function wire(ctx: SimulatorContext, token: string, path: string): Promise<any> {
  const response = await fetch(`${ctx.sim.url}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  return response.status === 204 ? null : response.json()
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length

test.group('Sync | trigger', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15')
    const cleanup = await freshDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  test('a first sync stores every type with the provider values', async ({ client, assert }) => {
    const token = completeToken('first')
    const response = await client.post(triggerUrl('first')).header('X-Provider-Token', token)
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'success')
    assert.equal(body.user_id, 'first')
    assert.notProperty(body, 'errors')
    // The spec's 11 keys, heart rate and the catalogue's further types (one key each).
    assert.sameMembers(Object.keys(body.results), SYNC_TYPES.map((type) => type.key))
    assert.includeMembers(Object.keys(body.results), [...SPEC_KEYS, 'heart_rate'])
    for (const key of [...SPEC_KEYS, 'heart_rate']) assert.isAbove(body.results[key], 0, key)

    const user = await User.findByOrFail('externalId', 'first')
    for (const type of SYNC_TYPES) {
      const [{ n }] = await db.from(type.table).where('user_id', user.id).count('* as n')
      assert.equal(Number(n), body.results[type.key], type.key)
    }

    // Sleep: stage seconds as sent, heart_rate_avg = rounded mean of the night's samples > 0.
    const { nights } = await wire(ctx, token, '/v3/users/sleep')
    const night = nights.find((n: any) => n.heart_rate_samples && Object.keys(n.heart_rate_samples).length > 0)
    const sleepRow = await db.from('sleep_records').where({ user_id: user.id, date: night.date }).firstOrFail()
    assert.equal(sleepRow.deep_sleep_seconds, night.deep_sleep)
    assert.equal(sleepRow.rem_sleep_seconds, night.rem_sleep)
    assert.equal(sleepRow.sleep_score, night.sleep_score ?? null)
    const positives = Object.values(night.heart_rate_samples as Record<string, number>).filter((v) => v > 0)
    assert.equal(sleepRow.heart_rate_avg, Math.round(mean(positives)))

    // Recharge: RMSSD and the ANS status code.
    const { recharges } = await wire(ctx, token, '/v3/users/nightly-recharge')
    const recharge = recharges[0]
    const rechargeRow = await db.from('nightly_recharges').where({ user_id: user.id, date: recharge.date }).firstOrFail()
    assert.equal(rechargeRow.hrv_avg, recharge.heart_rate_variability_avg)
    assert.equal(rechargeRow.ans_charge_status, recharge.ans_charge_status)

    // Activity: steps of the day.
    const activities = await wire(ctx, token, '/v3/users/activities?from=2026-03-10&to=2026-03-10')
    const activityRow = await db.from('daily_activities').where({ user_id: user.id, date: '2026-03-10' }).firstOrFail()
    assert.equal(activityRow.steps, activities[0].steps)

    // Exercises: one detail call per exercise, zones stored from the detail.
    assert.equal(ctx.sim.requestsTo('exercise_detail').length, body.results.exercises)
    const exercise = await db.from('exercises').where('user_id', user.id).firstOrFail()
    assert.isNotNull(exercise.heart_rate_zones)

    // Cardio load: Polar's -1.0 sentinel is never stored.
    const [{ n: negatives }] = await db.from('cardio_loads').where('user_id', user.id).where('cardio_load_ratio', '<', 0).count('* as n')
    assert.equal(Number(negatives), 0)

    // Continuous heart rate: one range call per 28 days, not one per day.
    assert.equal(ctx.sim.requestsTo('heart_rate').length, 1)
    const hrDay = await db.from('heart_rate_days').where('user_id', user.id).orderBy('date', 'desc').firstOrFail()
    assert.isAbove(hrDay.sample_count, 0)
    assert.isAtMost(hrDay.hr_min, hrDay.hr_avg)
    assert.isAtMost(hrDay.hr_avg, hrDay.hr_max)

    // Biosensing values as sent.
    const spo2 = await wire(ctx, token, '/v3/users/biosensing/spo2?from=2026-02-16&to=2026-03-15')
    const spo2Rows = await db.from('spo2_tests').where('user_id', user.id)
    assert.sameMembers(
      spo2Rows.map((r) => r.blood_oxygen_percent),
      spo2.map((t: any) => t.blood_oxygen_percent ?? null)
    )

    const run = await SyncRun.findByOrFail('userId', user.id)
    assert.equal(run.status, 'success')
    assert.equal(run.trigger, 'api')
    assert.isAbove(run.providerCalls, 12)
    assert.deepEqual(JSON.parse(run.progress!), { done: SYNC_TYPES.length, total: SYNC_TYPES.length, current: null, phase: null, details: null })
    assert.isNotNull(run.rateLimit)

    await user.refresh()
    assert.isNotNull(user.lastSyncedAt)
    assert.isNotNull(user.providerTokenEncrypted)
    assert.notInclude(user.providerTokenEncrypted!, token)
  })

  test('syncing the same window again changes nothing', async ({ client, assert }) => {
    const token = completeToken('again')
    const first = await client.post(triggerUrl('again')).header('X-Provider-Token', token)
    first.assertStatus(200)
    const user = await User.findByOrFail('externalId', 'again')
    const before = await snapshot(user.id)
    const detailCalls = ctx.sim.requestsTo('exercise_detail').length

    const second = await client.post(triggerUrl('again')).header('X-Provider-Token', token)
    second.assertStatus(200)
    assert.deepEqual(second.body().results, first.body().results)
    assert.deepEqual(await snapshot(user.id), before)
    // Exercise details are fetched once per new exercise only.
    assert.equal(ctx.sim.requestsTo('exercise_detail').length, detailCalls)
  })

  test('a fault in one endpoint gives partial and keeps every other type', async ({ client, assert }) => {
    ctx.sim.setFault('sleep', { type: 'server_error', status: 500 })
    const response = await client.post(triggerUrl('faulty')).header('X-Provider-Token', completeToken('faulty'))
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'partial')
    assert.deepEqual(Object.keys(body.errors), ['sleep'])
    assert.match(body.errors.sleep, /500/)
    assert.equal(body.results.sleep, 0)
    const user = await User.findByOrFail('externalId', 'faulty')
    for (const type of SYNC_TYPES.filter((t) => t.key !== 'sleep')) {
      const [{ n }] = await db.from(type.table).where('user_id', user.id).count('* as n')
      assert.isAbove(Number(n), 0, type.key)
    }
    const run = await SyncRun.findByOrFail('userId', user.id)
    assert.equal(run.status, 'partial')
    assert.property(JSON.parse(run.errors!), 'sleep')
  })

  test('every endpoint failing answers 502 with the reason per type', async ({ client, assert }) => {
    ctx.sim.setFault('*', { type: 'server_error', status: 503 })
    const response = await client.post(triggerUrl('down')).header('X-Provider-Token', completeToken('down'))
    response.assertStatus(502)
    assert.match(response.header('content-type') ?? '', /application\/problem\+json/)
    const body = response.body()
    assert.equal(body.code, 'E_SYNC_FAILED')
    assert.sameMembers(Object.keys(body.provider_errors), SYNC_TYPES.map((type) => type.key))
    assert.match(body.provider_errors.ecg, /503/)
    const user = await User.findByOrFail('externalId', 'down')
    const run = await SyncRun.findByOrFail('userId', user.id)
    assert.equal(run.status, 'failed')
    // A failed first sync does not keep the token.
    assert.isNull(user.providerTokenEncrypted)
  })

  test('a rejected token answers 502 and says to re-authorise, without further calls', async ({ client, assert }) => {
    const response = await client.post(triggerUrl('revoked')).header('X-Provider-Token', 'revoked_token')
    response.assertStatus(502)
    assert.match(response.body().detail, /Re-authorise/)
    assert.equal(ctx.sim.requests.length, 1)
  })

  test('a missing consent answers 502 and says to accept the consents', async ({ client, assert }) => {
    const response = await client.post(triggerUrl('consent')).header('X-Provider-Token', 'noconsent_token')
    response.assertStatus(502)
    assert.match(response.body().detail, /consent/)
  })

  test('a provider 429 answers 503 with Retry-After and keeps what was stored', async ({ client, assert }) => {
    ctx.sim.setFault('cardio_load', { type: 'rate_limit', resetSeconds: 120 })
    const response = await client.post(triggerUrl('limited')).header('X-Provider-Token', completeToken('limited'))
    response.assertStatus(503)
    assert.equal(response.header('retry-after'), '120')
    const body = response.body()
    assert.equal(body.code, 'E_PROVIDER_RATE_LIMITED')
    assert.isAbove(body.results.sleep, 0)
    // Nothing after the limit was called.
    assert.lengthOf(ctx.sim.requestsTo('heart_rate'), 0)
    const user = await User.findByOrFail('externalId', 'limited')
    const [{ n }] = await db.from('sleep_records').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), body.results.sleep)
    const run = await SyncRun.findByOrFail('userId', user.id)
    assert.equal(run.status, 'rate_limited')

    // The limit belongs to the whole AccessLink client: a background sync of another user makes no
    // call until it resets.
    ctx.sim.clearRequests()
    const other = await User.create({ externalId: 'limited-too', isActive: true })
    const userSync = await app.container.make(UserSyncService)
    const background = await userSync.sync(other, { token: completeToken('limited-too'), trigger: 'scheduler' })
    assert.equal(background.status, 'rate_limited')
    assert.closeTo(background.retryAfterSeconds!, 120, 2)
    assert.lengthOf(ctx.sim.requests, 0)

    // A manual trigger probes Polar, and succeeds once Polar answers again.
    ctx.sim.clearFaults()
    const manual = await client.post(triggerUrl('limited-too')).header('X-Provider-Token', completeToken('limited-too'))
    manual.assertStatus(200)
  })

  test('the provider token header is required', async ({ client, assert }) => {
    const response = await client.post(triggerUrl('notoken'))
    response.assertStatus(400)
    response.assertBodyContains({ code: 'E_PROVIDER_TOKEN_MISSING' })
    assert.isNull(await User.findBy('externalId', 'notoken'))
  })

  test('days outside 1–365 is a 422: {$self}')
    .with(['0', '366', 'abc', '1.5'])
    .run(async ({ client }, days) => {
      const response = await client.post(`${triggerUrl('days')}?days=${days}`).header('X-Provider-Token', 't')
      response.assertStatus(422)
      response.assertBodyContains({ code: 'E_VALIDATION_ERROR' })
    })

  test('a run left running by a dead process is marked interrupted by the next sync', async ({ client, assert }) => {
    const user = await User.create({ externalId: 'crashed', isActive: true })
    const orphan = await SyncRun.create({
      userId: user.id,
      trigger: 'scheduler',
      status: 'running',
      days: 28,
      providerCalls: 3,
      startedAt: ctx.clock.now().minus({ hours: 1 }),
    })
    const response = await client.post(`${triggerUrl('crashed')}?days=2`).header('X-Provider-Token', completeToken('crashed'))
    response.assertStatus(200)
    await orphan.refresh()
    assert.equal(orphan.status, 'interrupted')
    assert.isNotNull(orphan.finishedAt)
  })

  test('days limits the window', async ({ client, assert }) => {
    const response = await client.post(`${triggerUrl('short')}?days=3`).header('X-Provider-Token', completeToken('short'))
    response.assertStatus(200)
    const user = await User.findByOrFail('externalId', 'short')
    const dates = (await db.from('daily_activities').where('user_id', user.id).orderBy('date')).map((r) => r.date)
    assert.deepEqual(dates, ['2026-03-13', '2026-03-14', '2026-03-15'])
  })
})

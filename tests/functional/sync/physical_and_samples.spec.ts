import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { PolarEventService } from '#services/sync/polar_event_service'
import { latestSleepOffset } from '#services/sync/queries'
import { serviceApiKey } from '#tests/helpers/fixtures'
import { completeToken, shiftDate, simulatorPerTest, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'

/** A GET against the simulator with the user's token: the wire truth rows are compared with. */
async function wire(ctx: SimulatorContext, token: string, path: string): Promise<any> {
  const response = await fetch(`${ctx.sim.url}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  return response.status === 204 ? null : response.json()
}

/** Polar's `modified` (else `created`) as HRVault keys it: UTC to the second. */
const stampOf = (info: { modified?: string; created?: string }) => `${(info.modified ?? info.created)!.slice(0, 19)}Z`

const sum = (values: Array<number | null>) => values.reduce<number>((total, n) => total + (n ?? 0), 0)

test.group('Sync | physical information, activity samples and heart-rate samples', (group) => {
  const context = simulatorPerTest(group, TODAY)

  const sync = async (client: any, externalId: string, token: string, days = 28) => {
    const response = await client.post(`/api/v1/users/${externalId}/sync/trigger?days=${days}`).header('X-Provider-Token', token)
    response.assertStatus(200)
    return response.body()
  }

  test('a sync stores physical information with one call and activity samples from the activity call, served in spec-style windows', async ({ client, assert }) => {
    const ctx = context()
    const token = completeToken('mover')
    const body = await sync(client, 'mover', token)
    assert.equal(body.status, 'success')
    assert.equal(body.results.physical_info, 1)
    assert.equal(body.results.activity_samples, 28)

    // One physical-info call; the samples come inside the summaries (flags on the one activity call).
    assert.lengthOf(ctx.sim.requestsTo('physical_info'), 1)
    assert.lengthOf(ctx.sim.requestsTo('activity_samples'), 0)
    const activityCalls = ctx.sim.requestsTo('activity')
    assert.lengthOf(activityCalls, 1)
    assert.containsSubset(activityCalls[0].query, { steps: 'true', activity_zones: 'true', inactivity_stamps: 'true' })

    const user = await User.findByOrFail('externalId', 'mover')
    const [{ n }] = await db.from('activity_samples').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), 28)
    const key = await serviceApiKey()
    const get = async (path: string) => {
      const response = await client.get(`/api/v1/users/mover/${path}`).header('X-API-Key', key)
      response.assertStatus(200)
      return response.body()
    }

    // Physical information as Polar sent it.
    const info = await wire(ctx, token, '/v3/users/physical-info')
    const physical = await get('physical-info')
    assert.lengthOf(physical.history, 1)
    assert.containsSubset(physical.latest, {
      measured_at: stampOf(info),
      weight_kg: info.weight,
      height_cm: info.height,
      vo2_max: info.vo2_max,
      max_heart_rate: info.maximum_heart_rate,
      resting_heart_rate: info.resting_heart_rate,
      aerobic_threshold: info.aerobic_threshold,
      anaerobic_threshold: info.anaerobic_threshold,
      sleep_goal: info.sleep_goal,
      weight_source: info.weight_source,
      birthday: info.birthday,
    })

    // Exactly N days ending today, newest first; every stored day inside a longer window.
    const week = await get('activity-samples?days=7')
    assert.deepEqual(
      week.map((d: { date: string }) => d.date),
      [0, 1, 2, 3, 4, 5, 6].map((n) => shiftDate(TODAY, -n))
    )
    const month = await get('activity-samples?days=30')
    assert.deepEqual(
      month.map((d: { date: string }) => d.date),
      Array.from({ length: 28 }, (_, n) => shiftDate(TODAY, -n))
    )
    assert.lengthOf(await get('activity-samples?days=1'), 1)
    // The minutes add up to Polar's total and to the day's steps; the zones cover the day.
    const activity = await get('activity?days=7')
    for (const [i, day] of week.entries()) {
      assert.lengthOf(day.steps_per_minute, 1440)
      assert.equal(sum(day.steps_per_minute), day.total_steps, day.date)
      assert.equal(day.total_steps, activity[i].steps, day.date)
      assert.equal(sum(day.activity_zones.map((z: { duration_seconds: number }) => z.duration_seconds)), 86_400, day.date)
    }
    assert.deepEqual(await get(`activity-samples/${week[2].date}`), week[2])

    // Continuous heart rate: the wire's samples > 0, on the date, with the summary's count.
    const date = shiftDate(TODAY, -1)
    const day = await wire(ctx, token, `/v3/users/continuous-heart-rate/${date}`)
    const expected = day.heart_rate_samples
      .filter((s: { heart_rate: number }) => s.heart_rate > 0)
      .map((s: { heart_rate: number; sample_time: string }) => ({ time: `${date} ${s.sample_time}`, bpm: s.heart_rate }))
    assert.isBelow(expected.length, day.heart_rate_samples.length, 'the simulator sends some 0 placeholders')
    const samples = await get(`heart-rate/${date}/samples`)
    assert.deepEqual(samples, { date, sample_count: expected.length, samples: expected })
    const [summary] = (await get('heart-rate?days=2')).filter((d: { date: string }) => d.date === date)
    assert.equal(summary.sample_count, samples.sample_count)
  }).timeout(60_000)

  test('physical information adds a version when modified changes; an unchanged answer rewrites nothing', async ({ client, assert }) => {
    const ctx = context()
    const token = completeToken('weigher')
    await sync(client, 'weigher', token, 1)
    const user = await User.findByOrFail('externalId', 'weigher')
    const rows = () => db.from('physical_infos').where('user_id', user.id).orderBy('measured_at')
    const [first] = await rows()

    // The same answer again: the same row, not rewritten (updated_at included).
    await sync(client, 'weigher', token, 1)
    const again = await rows()
    assert.lengthOf(again, 1)
    assert.deepEqual(again[0], first)

    // The first later day the simulated user edited their settings.
    let edited: string | null = null
    for (let n = 1; n <= 150 && !edited; n++) {
      ctx.setToday(shiftDate(TODAY, n))
      if (stampOf(await wire(ctx, token, '/v3/users/physical-info')) !== first.measured_at) edited = shiftDate(TODAY, n)
    }
    assert.isNotNull(edited)
    const info = await wire(ctx, token, '/v3/users/physical-info')
    await sync(client, 'weigher', token, 1)
    const after = await rows()
    assert.lengthOf(after, 2)
    assert.deepEqual(after[0], first, 'the earlier version is kept as it was')
    assert.equal(after[1].measured_at, stampOf(info))
    // Dated on the user's local calendar (the offset of their latest night).
    const offset = (await latestSleepOffset(db.connection(), user.id)) ?? 0
    assert.equal(after[1].date, new Date(Date.parse(after[1].measured_at) + offset * 60_000).toISOString().slice(0, 10))
    assert.include([shiftDate(edited!, -1), edited, shiftDate(edited!, 1)], after[1].date)

    const key = await serviceApiKey()
    const response = await client.get('/api/v1/users/weigher/physical-info').header('X-API-Key', key)
    response.assertStatus(200)
    assert.deepEqual(
      response.body().history.map((v: { measured_at: string }) => v.measured_at),
      [stampOf(info), first.measured_at]
    )
    assert.equal(response.body().latest.weight_kg, info.weight)
  }).timeout(60_000)

  test('an ACTIVITY_SUMMARY event stores that day’s samples from the same activity call', async ({ assert }) => {
    const ctx = context()
    const token = completeToken('eventful')
    const user = await User.create({ externalId: 'eventful', isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
    await (await app.container.make(ProviderTokenService)).store(user, token)
    const date = shiftDate(TODAY, -2)
    const before = ctx.sim.requests.length

    const events = await app.container.make(PolarEventService)
    const outcome = await events.handle(user, { event: 'ACTIVITY_SUMMARY', polarUserId: String(ctx.sim.polarUserIdOf(token)), date })
    assert.containsSubset(outcome.counts, { activity: 1, activity_samples: 1 })
    const paths = ctx.sim.requests.slice(before).map((r) => r.path)
    assert.notInclude(paths.join(' '), '/samples')
    const row = await db.from('activity_samples').where({ user_id: user.id, date }).first()
    const daily = await db.from('daily_activities').where({ user_id: user.id, date }).first()
    assert.equal(row.total_steps, daily.steps)

    // The same event again writes nothing.
    const repeat = await events.handle(user, { event: 'ACTIVITY_SUMMARY', polarUserId: String(ctx.sim.polarUserIdOf(token)), date })
    assert.deepEqual(await db.from('activity_samples').where({ user_id: user.id, date }).first(), row)
    assert.equal(repeat.counts.activity_samples, 1)
  }).timeout(60_000)
})

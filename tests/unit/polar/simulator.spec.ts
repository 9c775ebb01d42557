import { test } from '@japa/runner'
import { addDays } from '#services/polar/local_times'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'

const TODAY = '2026-11-22'

async function get(sim: PolarSimulator, path: string, auth: string | null = 'Bearer tok-wire') {
  const response = await fetch(`${sim.url}${path}`, { headers: auth ? { Authorization: auth } : {} })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null }
}

test.group('Polar simulator | wire format (reference §13)', (group) => {
  let sim: PolarSimulator
  group.setup(async () => {
    sim = await startPolarSimulator({ today: TODAY, profiles: { 'tok-wire': { biosensing: true, sleepwise: true } } })
    return () => sim.close()
  })
  group.each.setup(() => sim.clearFaults())

  test('wraps sleep, recharge and sleep/available, and lists everything else as bare arrays', async ({ assert }) => {
    assert.property((await get(sim, '/v3/users/sleep')).body, 'nights')
    assert.property((await get(sim, '/v3/users/nightly-recharge')).body, 'recharges')
    assert.property((await get(sim, '/v3/users/sleep/available')).body, 'available')
    for (const path of [
      '/v3/exercises',
      '/v3/users/activities',
      '/v3/users/cardio-load',
      '/v3/users/sleepwise/alertness',
      '/v3/users/biosensing/skintemperature',
    ]) {
      assert.isArray((await get(sim, path)).body, path)
    }
    assert.property((await get(sim, `/v3/users/continuous-heart-rate?from=${TODAY}&to=${TODAY}`)).body, 'heart_rates')
  })

  test('answers per-date misses with 404 or 204 as Polar does', async ({ assert }) => {
    const old = '2025-06-01'
    assert.equal((await get(sim, `/v3/users/sleep/${old}`)).status, 404)
    assert.equal((await get(sim, `/v3/users/nightly-recharge/${old}`)).status, 404)
    assert.equal((await get(sim, `/v3/users/continuous-heart-rate/${old}`)).status, 404)
    const activity = await get(sim, `/v3/users/activities/${old}`)
    assert.equal(activity.status, 204)
    assert.equal(activity.text, '')
    const cardio = await get(sim, `/v3/users/cardio-load/${old}`)
    assert.equal(cardio.status, 200)
    assert.deepInclude(cardio.body[0], { cardio_load_status: 'LOAD_STATUS_NOT_AVAILABLE', cardio_load: -1, cardio_load_ratio: -1 })
    assert.equal((await get(sim, '/v3/users/sleepwise/alertness', 'Bearer empty-user')).status, 204)
  })

  test('uses kebab-case where Polar does and omits absent keys', async ({ assert }) => {
    const list = (await get(sim, '/v3/exercises')).body as Array<Record<string, unknown>>
    const detail = (await get(sim, `/v3/exercises/${list[0].id}?zones=true`)).body
    assert.properties(detail.heart_rate_zones[0], ['index', 'lower-limit', 'upper-limit', 'in-zone'])
    assert.properties(detail.training_load_pro, ['cardio-load', 'cardio-load-interpretation'])
    const withoutDistance = list.find((e) => !('distance' in e))
    if (withoutDistance) assert.notProperty(withoutDistance, 'distance')
    for (const exercise of list) {
      for (const value of Object.values(exercise)) assert.notStrictEqual(value, null)
    }
    assert.equal((await get(sim, `/v3/exercises/${list[0].id}/samples`)).status, 404)
  })

  test('mixes the real time formats', async ({ assert }) => {
    const night = (await get(sim, '/v3/users/sleep')).body.nights.at(-1)
    assert.match(night.sleep_start_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
    assert.isTrue(Object.keys(night.hypnogram).every((k) => /^\d{2}:\d{2}$/.test(k)))
    const exercise = (await get(sim, '/v3/exercises')).body[0]
    assert.match(exercise.start_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
    assert.isNumber(exercise.start_time_utc_offset)
    assert.match(exercise.duration, /^PT/)
    const alertness = (await get(sim, '/v3/users/sleepwise/alertness')).body[0]
    assert.match(alertness.sleep_period_start_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{2}$/)
    const hr = (await get(sim, `/v3/users/continuous-heart-rate?from=${TODAY}&to=${TODAY}`)).body.heart_rates[0]
    assert.match(hr.heart_rate_samples[0].sample_time, /^\d{2}:\d{2}:\d{2}$/)
    const spo2 = (await get(sim, '/v3/users/biosensing/spo2')).body[0]
    assert.isNumber(spo2.test_time)
    assert.isNumber(spo2.time_zone_offset)
  })

  test('validates from/to ranges with 400', async ({ assert }) => {
    const tooLong = `from=${addDays(TODAY, -29)}&to=${TODAY}`
    assert.equal((await get(sim, `/v3/users/activities?${tooLong}`)).status, 400)
    assert.equal((await get(sim, `/v3/users/cardio-load/date?${tooLong}`)).status, 400)
    assert.equal((await get(sim, `/v3/users/activities?from=${addDays(TODAY, -400)}&to=${addDays(TODAY, -390)}`)).status, 400)
    assert.equal((await get(sim, `/v3/users/activities?from=${TODAY}&to=${addDays(TODAY, -1)}`)).status, 400)
    assert.equal((await get(sim, '/v3/users/continuous-heart-rate')).status, 400)
    assert.equal((await get(sim, `/v3/users/activities?from=${addDays(TODAY, -28)}&to=${TODAY}`)).status, 200)
    assert.equal((await get(sim, `/v3/users/activities/?from=${addDays(TODAY, -3)}&to=${TODAY}`)).status, 200)
    const error = (await get(sim, `/v3/users/activities?${tooLong}`)).body
    assert.properties(error, ['timestamp', 'status', 'errorType', 'message', 'corrId'])
  })

  test('enforces Bearer on user data and Basic on client endpoints', async ({ assert }) => {
    const basic = `Basic ${Buffer.from('id:secret').toString('base64')}`
    assert.equal((await get(sim, '/v3/users/sleep', null)).status, 401)
    assert.equal((await get(sim, '/v3/users/sleep', basic)).status, 401)
    assert.equal((await get(sim, '/v3/users/sleep', 'Bearer invalid-x')).status, 401)
    assert.equal((await get(sim, '/v3/notifications', 'Bearer tok-wire')).status, 401)
    assert.equal((await get(sim, '/v3/notifications', basic)).status, 204)
    assert.deepEqual((await get(sim, '/v3/webhooks', basic)).body, { data: [] })
  })

  test('sends RateLimit headers on every answer', async ({ assert }) => {
    for (const [path, auth] of [['/v3/users/sleep', 'Bearer tok-wire'], ['/v3/users/sleep', null], ['/nope', null]] as const) {
      const { headers } = await get(sim, path, auth)
      assert.match(headers.get('ratelimit-usage')!, /^\d+,\d+$/)
      assert.match(headers.get('ratelimit-limit')!, /^\d+,\d+$/)
      assert.match(headers.get('ratelimit-reset')!, /^\d+,\d+$/)
    }
  })

  test('answers 429 with an empty body when a fault says so', async ({ assert }) => {
    sim.setFault('*', { type: 'rate_limit', resetSeconds: 42, times: 1 })
    const limited = await get(sim, '/v3/users/sleep')
    assert.equal(limited.status, 429)
    assert.equal(limited.text, '')
    assert.match(limited.headers.get('ratelimit-reset')!, /^42,/)
    assert.equal((await get(sim, '/v3/users/sleep')).status, 200)
  })

  test('registers a user once and answers 409 on repeat', async ({ assert }) => {
    const post = (token: string, memberId: string) =>
      fetch(`${sim.url}/v3/users`, {
        method: 'POST',
        headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ 'member-id': memberId }),
      })
    const first = await post('tok-reg', 'member-1')
    assert.equal(first.status, 200)
    assert.properties(await first.json(), ['polar-user-id', 'member-id', 'registration-date', 'first-name'])
    assert.equal((await post('tok-reg', 'member-1')).status, 409)
    assert.equal((await post('tok-other', 'member-1')).status, 409)
  })
})

test.group('Polar simulator | synthetic data', () => {
  test('is deterministic per user and date while the window slides', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY })
    try {
      const before = (await get(sim, '/v3/users/sleep', 'Bearer tok-det')).body.nights
      sim.setToday(addDays(TODAY, 10))
      const after = (await get(sim, '/v3/users/sleep', 'Bearer tok-det')).body.nights
      const overlap = before.filter((n: { date: string }) => after.some((m: { date: string }) => m.date === n.date))
      assert.isAbove(overlap.length, 10)
      for (const night of overlap) assert.deepEqual(after.find((m: { date: string }) => m.date === night.date), night)
      assert.equal(after.at(-1).date <= addDays(TODAY, 10), true)
      const other = (await get(sim, '/v3/users/sleep', 'Bearer tok-someone-else')).body.nights
      assert.notDeepEqual(other[0], after[0])
    } finally {
      await sim.close()
    }
  })

  test('varies users: some have biosensing, some miss days, HRV has a weekly rhythm', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY, window: 120 })
    try {
      let withSensors = 0
      let missingNights = 0
      const hrvByWeekday: number[][] = [[], [], [], [], [], [], []]
      for (let i = 0; i < 12; i++) {
        const token = `Bearer tok-population-${i}`
        if ((await get(sim, '/v3/users/biosensing/skintemperature', token)).status === 200) withSensors++
        const recharges = (await get(sim, '/v3/users/nightly-recharge', token)).body.recharges as Array<{ date: string; heart_rate_variability_avg?: number }>
        missingNights += 120 - (await get(sim, '/v3/users/sleep', token)).body.nights.length
        const mean = recharges.reduce((s, r) => s + (r.heart_rate_variability_avg ?? 0), 0) / recharges.length
        for (const r of recharges) {
          if (r.heart_rate_variability_avg === undefined) continue
          hrvByWeekday[(new Date(`${r.date}T00:00:00Z`).getUTCDay() + 6) % 7].push(r.heart_rate_variability_avg / mean)
        }
      }
      assert.isAbove(withSensors, 0)
      assert.isBelow(withSensors, 12)
      assert.isAbove(missingNights, 0)
      const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
      // Weekend nights recover better than the Monday after the weekend's long sessions.
      assert.isAbove(avg(hrvByWeekday[6]), avg(hrvByWeekday[0]))
    } finally {
      await sim.close()
    }
  })

  test('serves training blocks whose load ratios reach every band', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY, window: 180 })
    try {
      const statuses = new Set<string>()
      for (let chunk = 0; chunk < 6; chunk++) {
        const to = addDays(TODAY, -chunk * 28)
        const days = (await get(sim, `/v3/users/cardio-load/date?from=${addDays(to, -27)}&to=${to}`, 'Bearer tok-athlete')).body
        for (const d of days) statuses.add(d.cardio_load_status)
      }
      assert.includeMembers([...statuses], ['MAINTAINING', 'PRODUCTIVE'])
      assert.isAtLeast(statuses.size, 4)
    } finally {
      await sim.close()
    }
  })

  test('serves every day of every daily type for a complete profile', async ({ assert }) => {
    const sim = await startPolarSimulator({
      today: TODAY,
      window: 120,
      defaults: { missingRate: 0, partialRate: 0, biosensing: true, sleepwise: true },
    })
    try {
      const token = 'Bearer tok-complete'
      assert.lengthOf((await get(sim, '/v3/users/sleep', token)).body.nights, 120)
      assert.lengthOf((await get(sim, '/v3/users/nightly-recharge', token)).body.recharges, 120)
      const counts: Record<string, number> = {}
      for (let chunk = 0; chunk < 5; chunk++) {
        const to = addDays(TODAY, -chunk * 24)
        const q = `from=${addDays(to, -23)}&to=${to}`
        for (const [name, path] of [
          ['activity', `/v3/users/activities?${q}`],
          ['cardio', `/v3/users/cardio-load/date?${q}`],
          ['alertness', `/v3/users/sleepwise/alertness/date?${q}`],
          ['bedtime', `/v3/users/sleepwise/circadian-bedtime/date?${q}`],
          ['skin', `/v3/users/biosensing/skintemperature?${q}`],
        ]) {
          counts[name] = (counts[name] ?? 0) + (await get(sim, path, token)).body.length
        }
        counts.hr = (counts.hr ?? 0) + (await get(sim, `/v3/users/continuous-heart-rate?${q}`, token)).body.heart_rates.length
      }
      assert.deepEqual(counts, { activity: 120, cardio: 120, alertness: 120, bedtime: 120, skin: 120, hr: 120 })
    } finally {
      await sim.close()
    }
  })

  test('holds a timeout-faulted request until closed', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY })
    sim.setFault('sleep', 'timeout')
    const pending = fetch(`${sim.url}/v3/users/sleep`, { headers: { Authorization: 'Bearer t' }, signal: AbortSignal.timeout(200) }).catch((e) => e)
    assert.equal((await pending).name, 'TimeoutError')
    assert.isNull(sim.requestsTo('sleep')[0].status)
    await sim.close()
  })
})

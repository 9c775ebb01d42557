import { test } from '@japa/runner'
import { AccessLinkClient } from '#services/polar/accesslink_client'
import { PolarConsentError } from '#services/polar/errors/polar_consent_error'
import { PolarOAuthError } from '#services/polar/errors/polar_oauth_error'
import { PolarRateLimitError } from '#services/polar/errors/polar_rate_limit_error'
import { PolarUnauthorizedError } from '#services/polar/errors/polar_unauthorized_error'
import { PolarUpstreamError } from '#services/polar/errors/polar_upstream_error'
import { PolarOAuthClient } from '#services/polar/polar_oauth_client'
import { mapCardioLoadList } from '#services/polar/mappers/cardio_load_mapper'
import { mapExercise } from '#services/polar/mappers/exercise_mapper'
import { mapHeartRateDays } from '#services/polar/mappers/heart_rate_mapper'
import { mapSleepList } from '#services/polar/mappers/sleep_mapper'
import { addDays } from '#services/polar/local_times'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'

const TODAY = '2026-11-22'
const LAST_28 = { from: addDays(TODAY, -27), to: TODAY }
/** A user with every data type (Elixir sensors, SleepWise, no missing days). */
const FULL = 'tok-full-user'

function client(sim: PolarSimulator, accessToken = FULL, extra: { timeoutMs?: number } = {}) {
  return new AccessLinkClient({ baseUrl: sim.url, accessToken, retryDelayMs: 5, timeoutMs: extra.timeoutMs ?? 5000 })
}

test.group('Polar client | every type against the simulator', (group) => {
  let sim: PolarSimulator
  group.setup(async () => {
    sim = await startPolarSimulator({
      today: TODAY,
      profiles: { [FULL]: { biosensing: true, sleepwise: true, missingRate: 0, partialRate: 0 } },
    })
    return () => sim.close()
  })
  group.each.setup(() => {
    sim.clearFaults()
    sim.clearRequests()
  })

  test('reads sleep nights from the {nights} wrapper', async ({ assert }) => {
    const nights = await client(sim).listSleep()
    assert.lengthOf(nights, 28)
    assert.equal(nights[0].date, LAST_28.from)
    assert.equal(nights.at(-1)!.date, TODAY)
    assert.match(nights[0].sleep_start_time!, /[+-]\d{2}:\d{2}$/)
    const rows = mapSleepList(nights)
    assert.lengthOf(rows, 28)
    assert.isTrue(rows.every((r) => r.heartRateAvg !== null && r.hypnogram !== null))
    const week = await client(sim).listSleep({ from: addDays(TODAY, -6), to: TODAY })
    assert.lengthOf(week, 7)
  })

  test('reads one night by date and treats 404 as no data', async ({ assert }) => {
    const c = client(sim)
    assert.equal((await c.getSleep(TODAY))!.date, TODAY)
    assert.isNull(await c.getSleep('2025-01-01'))
    assert.isNull(await c.getNightlyRecharge('2025-01-01'))
    assert.deepEqual(sim.requests.map((r) => r.status), [200, 404, 404])
  })

  test('reads nightly recharge from the {recharges} wrapper', async ({ assert }) => {
    const recharges = await client(sim).listNightlyRecharge(LAST_28)
    assert.isAbove(recharges.length, 20)
    assert.isTrue(recharges.every((r) => typeof r.heart_rate_variability_avg === 'number'))
  })

  test('reads daily activity with from/to as a bare array', async ({ assert }) => {
    const days = await client(sim).listDailyActivities(LAST_28)
    assert.isAbove(days.length, 24)
    assert.match(days[0].start_time!, /^\d{4}-\d{2}-\d{2}T00:00$/)
    assert.deepEqual(sim.requestsTo('activity')[0].query, { from: LAST_28.from, to: TODAY })
  })

  test('lists exercises and fetches a detail with zones', async ({ assert }) => {
    const c = client(sim)
    const list = await c.listExercises()
    assert.isAbove(list.length, 5)
    assert.isUndefined(list[0].heart_rate_zones)
    const detail = (await c.getExercise(list[0].id!))!
    assert.lengthOf(detail.heart_rate_zones!, 5)
    assert.property(detail.heart_rate_zones![0], 'in-zone')
    const row = mapExercise(detail)!
    assert.equal(row.polarExerciseId, list[0].id)
    assert.isNotNull(row.heartRateZones)
    assert.equal(sim.requestsTo('exercise_detail')[0].query.zones, 'true')
    assert.isNull(await c.getExercise('nope1234'))
  })

  test('reads cardio load per day with -1.0 sentinels mapped to null', async ({ assert }) => {
    const days = await client(sim).listCardioLoad(LAST_28)
    assert.lengthOf(days, 28)
    const rows = mapCardioLoadList(days)
    assert.isTrue(rows.every((r) => r.cardioLoadRatio === null || r.cardioLoadRatio >= 0))
    assert.equal(sim.requestsTo('cardio_load')[0].path, '/v3/users/cardio-load/date')
  })

  test('reads SleepWise alertness and bedtime, and 204 as an empty list', async ({ assert }) => {
    const c = client(sim)
    const alertness = await c.listSleepwiseAlertness(LAST_28)
    const bedtime = await c.listSleepwiseBedtime(LAST_28)
    assert.isAbove(alertness.length, 20)
    assert.isAbove(bedtime.length, 20)
    assert.match(alertness[0].sleep_period_start_time!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{2}$/)
    sim.setProfile('tok-no-sleepwise', { sleepwise: false })
    assert.deepEqual(await client(sim, 'tok-no-sleepwise').listSleepwiseAlertness(LAST_28), [])
    assert.equal(sim.requestsTo('sleepwise_alertness').at(-1)!.status, 204)
  })

  test('reads the four biosensing types, and none for a device without sensors', async ({ assert }) => {
    const c = client(sim)
    const range = LAST_28
    assert.isNotEmpty(await c.listSpo2(range))
    assert.isNotEmpty(await c.listBodyTemperature(range))
    assert.lengthOf(await c.listSkinTemperature(range), 28)
    await c.listEcg(range)
    sim.setProfile('tok-nobio-user', { biosensing: false })
    const plain = client(sim, 'tok-nobio-user')
    assert.deepEqual(await plain.listSpo2(range), [])
    assert.deepEqual(await plain.listEcg(range), [])
    assert.deepEqual(await plain.listBodyTemperature(range), [])
    assert.deepEqual(await plain.listSkinTemperature(range), [])
  })

  test('reads continuous heart rate with one range call', async ({ assert }) => {
    const days = await client(sim).listContinuousHeartRate(LAST_28)
    assert.lengthOf(days, 28)
    assert.lengthOf(sim.requestsTo('heart_rate'), 1)
    const rows = mapHeartRateDays(days)
    assert.isTrue(rows.every((r) => r.sampleCount > 200 && r.hrMin! > 0))
  })

  test('fetches all types of 28 days in 12 calls plus one per new exercise', async ({ assert }) => {
    const c = client(sim)
    await c.listSleep(LAST_28)
    await c.listNightlyRecharge(LAST_28)
    await c.listDailyActivities(LAST_28)
    const exercises = await c.listExercises()
    await c.listCardioLoad(LAST_28)
    await c.listSleepwiseAlertness(LAST_28)
    await c.listSleepwiseBedtime(LAST_28)
    await c.listSpo2(LAST_28)
    await c.listEcg(LAST_28)
    await c.listBodyTemperature(LAST_28)
    await c.listSkinTemperature(LAST_28)
    await c.listContinuousHeartRate(LAST_28)
    assert.equal(c.callCount, 12)
    for (const e of exercises) await c.getExercise(e.id!)
    assert.equal(c.callCount, 12 + exercises.length)
    assert.equal(c.callsByEndpoint['GET /v3/exercises/{id}'], exercises.length)
    assert.lengthOf(sim.requests, c.callCount)
  })

  test('exposes the RateLimit headers of the last answer', async ({ assert }) => {
    const c = client(sim)
    await c.listSleep()
    assert.lengthOf(c.rateLimit!.usage, 2)
    assert.deepEqual(c.rateLimit!.limit, [500, 5000])
    assert.isAbove(c.rateLimit!.reset[0], 0)
  })
})

test.group('Polar client | long ranges', () => {
  test('splits a 90-day range into 28-day calls without gaps or duplicates', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY, window: 120, defaults: { missingRate: 0 } })
    try {
      const c = client(sim, 'tok-long')
      const range = { from: addDays(TODAY, -89), to: TODAY }
      const hr = await c.listContinuousHeartRate(range)
      const cardio = await c.listCardioLoad(range)
      assert.lengthOf(new Set(hr.map((d) => d.date)), 90)
      assert.lengthOf(new Set(cardio.map((d) => d.date)), 90)
      assert.lengthOf(cardio, 90)
      assert.lengthOf(sim.requestsTo('heart_rate'), 4)
      assert.isTrue(sim.requests.every((r) => r.status === 200))
    } finally {
      await sim.close()
    }
  })

  test('accepts a continuous heart-rate range answered as a bare array', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY, heartRateShape: 'array', defaults: { missingRate: 0 } })
    try {
      assert.lengthOf(await client(sim, 'tok-array').listContinuousHeartRate({ from: addDays(TODAY, -2), to: TODAY }), 3)
    } finally {
      await sim.close()
    }
  })
})

test.group('Polar client | faults and errors', (group) => {
  let sim: PolarSimulator
  group.setup(async () => {
    sim = await startPolarSimulator({ today: TODAY })
    return () => sim.close()
  })
  group.each.setup(() => {
    sim.clearFaults()
    sim.clearRequests()
  })

  test('retries a 5xx once, then names the endpoint', async ({ assert }) => {
    sim.setFault('sleep', { type: 'server_error', status: 503 })
    const error = await client(sim).listSleep().catch((e) => e)
    assert.instanceOf(error, PolarUpstreamError)
    assert.equal(error.providerStatus, 503)
    assert.equal(error.endpoint, 'GET /v3/users/sleep')
    assert.include(error.message, 'GET /v3/users/sleep')
    assert.lengthOf(sim.requestsTo('sleep'), 2)
  })

  test('recovers when the 5xx is transient', async ({ assert }) => {
    sim.setFault('recharge', { type: 'server_error', times: 1 })
    const recharges = await client(sim).listNightlyRecharge()
    assert.isNotEmpty(recharges)
    assert.deepEqual(sim.requestsTo('recharge').map((r) => r.status), [500, 200])
  })

  test('throws a rate-limit error with the reset seconds on 429 and stops calling', async ({ assert }) => {
    sim.setFault('activity', { type: 'rate_limit', resetSeconds: 120, times: 1 })
    const c = client(sim)
    const error = await c.listDailyActivities(LAST_28).catch((e) => e)
    assert.instanceOf(error, PolarRateLimitError)
    assert.equal(error.retryAfterSeconds, 120)
    assert.equal(error.providerStatus, 429)
    const again = await c.listSleep().catch((e) => e)
    assert.instanceOf(again, PolarRateLimitError)
    assert.lengthOf(sim.requests, 1)
  })

  test('times out on a hanging endpoint', async ({ assert }) => {
    sim.setFault('cardio_load', 'timeout')
    const error = await client(sim, FULL, { timeoutMs: 300 }).listCardioLoad(LAST_28).catch((e) => e)
    assert.instanceOf(error, PolarUpstreamError)
    assert.equal(error.reason, 'timeout')
    assert.include(error.message, 'GET /v3/users/cardio-load/date')
    assert.lengthOf(sim.requestsTo('cardio_load'), 1)
  })

  test('rejects malformed JSON', async ({ assert }) => {
    sim.setFault('spo2', 'malformed')
    const error = await client(sim).listSpo2(LAST_28).catch((e) => e)
    assert.instanceOf(error, PolarUpstreamError)
    assert.equal(error.reason, 'malformed')
    assert.include(error.message, 'GET /v3/users/biosensing/spo2')
  })

  test('faults on one endpoint leave the others working', async ({ assert }) => {
    sim.setFault('ecg', '5xx')
    const c = client(sim)
    await assert.rejects(() => c.listEcg(LAST_28))
    assert.isNotEmpty(await c.listCardioLoad(LAST_28))
  })

  test('says to re-authorise on 401', async ({ assert }) => {
    const error = await client(sim, 'invalid-token').listSleep().catch((e) => e)
    assert.instanceOf(error, PolarUnauthorizedError)
    assert.include(error.message, 'Re-authorise')
    assert.lengthOf(sim.requests, 1)
  })

  test('says to accept consents on 403', async ({ assert }) => {
    const error = await client(sim, 'noconsent-token').listExercises().catch((e) => e)
    assert.instanceOf(error, PolarConsentError)
    assert.include(error.message, 'accept the data-sharing consents')
  })

  test('rejects an invalid range before calling', async ({ assert }) => {
    await assert.rejects(() => client(sim).listCardioLoad({ from: TODAY, to: addDays(TODAY, -1) }))
    await assert.rejects(() => client(sim).listCardioLoad({ from: '2026-02-30', to: TODAY }))
    assert.lengthOf(sim.requests, 0)
  })
})

test.group('Polar client | OAuth and registration', (group) => {
  let sim: PolarSimulator
  group.setup(async () => {
    sim = await startPolarSimulator({ today: TODAY, clients: { 'hrvault-client': 's3cret' } })
    return () => sim.close()
  })

  async function authorizeInBrowser(authorizeUrl: string): Promise<URL> {
    const page = await fetch(authorizeUrl)
    const html = await page.text()
    const action = /action="([^"]+)"/.exec(html)![1]
    const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m): [string, string] => [m[1], m[2].replace(/&#38;/g, '&')])
    const query = new URLSearchParams([...fields, ['login', 'ada'], ['decision', 'allow']] as Array<[string, string]>)
    const decision = await fetch(new URL(`${action}?${query}`, authorizeUrl), { redirect: 'manual' })
    return new URL(decision.headers.get('location')!)
  }

  test('completes authorize → code → token → register → data → deregister', async ({ assert }) => {
    const oauth = new PolarOAuthClient({ clientId: 'hrvault-client', clientSecret: 's3cret', authUrl: sim.authUrl, tokenUrl: sim.tokenUrl })
    const redirectUri = 'http://127.0.0.1:3333/admin/polar/callback'
    const url = new URL(oauth.authorizeUrl({ state: 'st-123', redirectUri }))
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      response_type: 'code',
      client_id: 'hrvault-client',
      redirect_uri: redirectUri,
      scope: 'accesslink.read_all',
      state: 'st-123',
    })

    const callback = await authorizeInBrowser(url.toString())
    assert.equal(`${callback.origin}${callback.pathname}`, redirectUri)
    assert.equal(callback.searchParams.get('state'), 'st-123')
    const token = await oauth.exchangeCode(callback.searchParams.get('code')!, redirectUri)
    assert.equal(token.tokenType, 'bearer')
    assert.equal(token.expiresIn, 31_535_999)
    assert.equal(token.polarUserId, sim.polarUserIdOf(token.accessToken))

    const polar = new AccessLinkClient({ baseUrl: sim.url, accessToken: token.accessToken })
    const first = await polar.registerUser('hrvault-user-1')
    assert.isTrue(first.created)
    assert.equal(first.user!['polar-user-id'], token.polarUserId)
    assert.equal(first.user!['member-id'], 'hrvault-user-1')
    assert.deepEqual(await polar.registerUser('hrvault-user-1'), { created: false, user: null })
    assert.isNotEmpty(await polar.listSleep())
    assert.equal(polar.rateLimit!.limit[0], 520)

    assert.isTrue(await polar.deregisterUser(token.polarUserId))
    await assert.rejects(() => polar.listSleep(), /Re-authorise/)
  })

  test('refuses a used code and bad client credentials', async ({ assert }) => {
    const oauth = new PolarOAuthClient({ clientId: 'hrvault-client', clientSecret: 's3cret', authUrl: sim.authUrl, tokenUrl: sim.tokenUrl })
    const callback = await authorizeInBrowser(oauth.authorizeUrl({ state: 'x', redirectUri: 'http://127.0.0.1/cb' }))
    const code = callback.searchParams.get('code')!
    await oauth.exchangeCode(code, 'http://127.0.0.1/cb')
    const reused = await oauth.exchangeCode(code, 'http://127.0.0.1/cb').catch((e) => e)
    assert.instanceOf(reused, PolarOAuthError)
    assert.equal(reused.reason, 'invalid_grant')

    const wrong = new PolarOAuthClient({ clientId: 'hrvault-client', clientSecret: 'nope', authUrl: sim.authUrl, tokenUrl: sim.tokenUrl })
    const error = await wrong.exchangeCode('whatever').catch((e) => e)
    assert.instanceOf(error, PolarOAuthError)
    assert.equal(error.reason, 'invalid_client')
    assert.notInclude(error.message, 'nope')
  })
})

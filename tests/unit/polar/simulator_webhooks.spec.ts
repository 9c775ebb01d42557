import { test } from '@japa/runner'
import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { addDays } from '#services/polar/local_times'
import { startPolarSimulator, type PolarSimulator, type WebhookDelivery } from '#simulators/polar/simulator'
import { WEBHOOK_EVENTS } from '#simulators/polar/webhooks'

const TODAY = '2026-11-22'
const BASIC = `Basic ${Buffer.from('hrvault-client:s3cret').toString('base64')}`
const ALL_EVENTS = [...WEBHOOK_EVENTS]

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  json: Record<string, unknown>
}

/** A loopback webhook receiver that records every request and answers `status` (200 by default). */
async function startReceiver() {
  const received: Received[] = []
  const control = { status: 200 }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: Record<string, unknown> = {}
      try {
        json = JSON.parse(body)
      } catch {}
      received.push({ path: req.url ?? '/', headers: req.headers, body, json })
      res.writeHead(control.status, { 'Content-Type': 'text/plain' })
      res.end(control.status === 200 ? 'ok' : 'nope')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/polar/webhook`,
    received,
    control,
    events: () => received.filter((r) => r.json.event !== 'PING'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>

async function call(sim: PolarSimulator, method: string, path: string, body?: unknown, auth: string | null = BASIC) {
  const headers: Record<string, string> = auth ? { Authorization: auth } : {}
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(`${sim.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null }
}

const hmac = (secret: string, raw: string) => createHmac('sha256', secret).update(raw).digest('hex')

async function createWebhook(sim: PolarSimulator, url: string, events = ALL_EVENTS) {
  const created = await call(sim, 'POST', '/v3/webhooks', { events, url })
  if (created.status !== 201) throw new Error(`webhook not created: ${created.status} ${created.text}`)
  return created.body.data as { id: string; events: string[]; url: string; signature_secret_key: string }
}

async function deleteWebhook(sim: PolarSimulator) {
  const hook = sim.webhook()
  if (hook) await call(sim, 'DELETE', `/v3/webhooks/${hook.id}`)
}

test.group('Polar simulator | webhook management', (group) => {
  let sim: PolarSimulator
  let receiver: Receiver
  group.setup(async () => {
    sim = await startPolarSimulator({ today: TODAY, webhooks: { timeoutMs: 2000 } })
    receiver = await startReceiver()
    return async () => {
      await sim.close()
      await receiver.close()
    }
  })
  group.each.setup(async () => {
    await deleteWebhook(sim)
    sim.clearDeliveries()
    receiver.received.length = 0
    receiver.control.status = 200
  })

  test('pings the URL unsigned, then answers 201 with the secret only once', async ({ assert }) => {
    const created = await call(sim, 'POST', '/v3/webhooks', { events: ['EXERCISE', 'SLEEP'], url: receiver.url })
    assert.equal(created.status, 201)
    const data = created.body.data
    assert.deepEqual(Object.keys(data), ['id', 'events', 'url', 'signature_secret_key'])
    assert.deepEqual(data.events, ['EXERCISE', 'SLEEP'])
    assert.equal(data.url, receiver.url)
    assert.match(data.signature_secret_key, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)

    assert.lengthOf(receiver.received, 1)
    const pingRequest = receiver.received[0]
    assert.equal(pingRequest.path, '/polar/webhook')
    assert.deepEqual(Object.keys(pingRequest.json), ['timestamp', 'event'])
    assert.equal(pingRequest.json.event, 'PING')
    assert.match(pingRequest.json.timestamp as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    assert.equal(pingRequest.headers['content-type'], 'application/json')
    assert.notProperty(pingRequest.headers, 'polar-webhook-signature')

    assert.deepEqual(sim.webhook(), { id: data.id, url: receiver.url, events: ['EXERCISE', 'SLEEP'], active: true, secret: data.signature_secret_key })
    const listed = await call(sim, 'GET', '/v3/webhooks')
    assert.deepEqual(listed.body, { data: [{ id: data.id, events: ['EXERCISE', 'SLEEP'], url: receiver.url, active: true }] })
    assert.notInclude(listed.text, data.signature_secret_key)
    assert.deepEqual(sim.deliveries().map((d) => [d.event, d.status, d.signature]), [['PING', 200, null]])
  })

  test('answers 409 while a webhook exists, without pinging again', async ({ assert }) => {
    await createWebhook(sim, receiver.url)
    const again = await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP'], url: receiver.url })
    assert.equal(again.status, 409)
    assert.properties(again.body, ['timestamp', 'status', 'errorType', 'message', 'corrId'])
    assert.lengthOf(receiver.received, 1)
  })

  test('answers 400 and creates nothing when the ping is not answered with 200', async ({ assert }) => {
    receiver.control.status = 500
    const refused = await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP'], url: receiver.url })
    assert.equal(refused.status, 400)
    assert.equal(refused.body.status, 400)
    assert.include(refused.body.message, '500')
    assert.lengthOf(receiver.received, 1)
    assert.isNull(sim.webhook())
    assert.deepEqual((await call(sim, 'GET', '/v3/webhooks')).body, { data: [] })

    const closed = await startReceiver()
    await closed.close()
    const unreachable = await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP'], url: closed.url })
    assert.equal(unreachable.status, 400)
    assert.isNull(sim.webhook())
  })

  test('validates the body and wants Basic auth', async ({ assert }) => {
    assert.equal((await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP', 'RECHARGE'], url: receiver.url })).status, 400)
    assert.equal((await call(sim, 'POST', '/v3/webhooks', { events: [], url: receiver.url })).status, 400)
    assert.equal((await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP'] })).status, 400)
    assert.equal((await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP'], url: 'ftp://x' })).status, 400)
    assert.equal((await call(sim, 'POST', '/v3/webhooks', { events: ['SLEEP'], url: receiver.url }, 'Bearer tok')).status, 401)
    assert.equal((await call(sim, 'GET', '/v3/webhooks', undefined, null)).status, 401)
    assert.lengthOf(receiver.received, 0)
    assert.isNull(sim.webhook())
  })

  test('patches events and url (pinging the new url), deletes, 404 for unknown ids', async ({ assert }) => {
    const hook = await createWebhook(sim, receiver.url)
    const other = await startReceiver()
    try {
      const patched = await call(sim, 'PATCH', `/v3/webhooks/${hook.id}`, { events: ['EXERCISE'] })
      assert.equal(patched.status, 200)
      assert.deepEqual(patched.body, { data: [{ id: hook.id, events: ['EXERCISE'], url: receiver.url, active: true }] })

      const moved = await call(sim, 'PATCH', `/v3/webhooks/${hook.id}`, { url: other.url })
      assert.equal(moved.status, 200)
      assert.equal(moved.body.data[0].url, other.url)
      assert.lengthOf(other.received, 1)
      assert.equal(other.received[0].json.event, 'PING')
      assert.equal(other.received[0].headers['polar-webhook-signature'], hmac(hook.signature_secret_key, other.received[0].body))

      // The new URL must answer the ping with 200, else nothing changes.
      receiver.control.status = 503
      const refused = await call(sim, 'PATCH', `/v3/webhooks/${hook.id}`, { url: receiver.url, events: ['SLEEP'] })
      assert.equal(refused.status, 400)
      assert.deepInclude(sim.webhook()!, { url: other.url, events: ['EXERCISE'] })
      receiver.control.status = 200

      assert.equal((await call(sim, 'PATCH', `/v3/webhooks/${hook.id}`, { events: ['NOPE'] })).status, 400)
      assert.equal((await call(sim, 'PATCH', '/v3/webhooks/unknown', { events: ['SLEEP'] })).status, 404)
      assert.equal((await call(sim, 'DELETE', '/v3/webhooks/unknown')).status, 404)
      const deleted = await call(sim, 'DELETE', `/v3/webhooks/${hook.id}`)
      assert.equal(deleted.status, 204)
      assert.equal(deleted.text, '')
      assert.isNull(sim.webhook())
      assert.equal((await call(sim, 'DELETE', `/v3/webhooks/${hook.id}`)).status, 404)
      assert.deepEqual((await call(sim, 'GET', '/v3/webhooks')).body, { data: [] })
    } finally {
      await other.close()
    }
  })

  test('activates and deactivates (204 without a webhook)', async ({ assert }) => {
    assert.equal((await call(sim, 'POST', '/v3/webhooks/activate')).status, 204)
    assert.equal((await call(sim, 'POST', '/v3/webhooks/deactivate')).status, 204)
    await createWebhook(sim, receiver.url)
    assert.equal((await call(sim, 'POST', '/v3/webhooks/deactivate')).status, 200)
    assert.isFalse(sim.webhook()!.active)
    assert.isFalse((await call(sim, 'GET', '/v3/webhooks')).body.data[0].active)
    assert.equal((await call(sim, 'POST', '/v3/webhooks/activate')).status, 200)
    assert.isTrue(sim.webhook()!.active)
    assert.isTrue((await call(sim, 'GET', '/v3/webhooks')).body.data[0].active)
  })
})

test.group('Polar simulator | webhook events', (group) => {
  const TOKEN = 'tok-hook'
  let sim: PolarSimulator
  let receiver: Receiver
  let secret: string

  group.setup(async () => {
    sim = await startPolarSimulator({
      today: TODAY,
      webhooks: { timeoutMs: 2000 },
      profiles: {
        [TOKEN]: { missingRate: 0, partialRate: 0, sleepwise: true },
        'tok-unworn': { missingRate: 1, sleepwise: true },
      },
    })
    receiver = await startReceiver()
    return async () => {
      await sim.close()
      await receiver.close()
    }
  })
  group.each.setup(async () => {
    await deleteWebhook(sim)
    sim.setWebhookOptions({ duplicates: false, reorder: false, badSignature: false, delayMs: 0 })
    secret = (await createWebhook(sim, receiver.url)).signature_secret_key
    // The user becomes known to the simulator by using its token.
    assert200(await call(sim, 'GET', '/v3/users/sleep', undefined, `Bearer ${TOKEN}`))
    sim.clearDeliveries()
    receiver.received.length = 0
  })

  function assert200(answer: { status: number }) {
    if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}`)
  }

  /** A date of the window on which the user trained. */
  async function trainingDate(): Promise<string> {
    const exercises = (await call(sim, 'GET', '/v3/exercises', undefined, `Bearer ${TOKEN}`)).body as Array<{ start_time: string }>
    return exercises.at(-1)!.start_time.slice(0, 10)
  }

  test('signs the raw body with HMAC-SHA256 of the secret and names the event in a header', async ({ assert }) => {
    const delivery = await sim.emitEvent(TOKEN, 'SLEEP', { date: addDays(TODAY, -1) })
    assert.isNotNull(delivery)
    assert.equal(delivery!.status, 200)
    assert.lengthOf(receiver.received, 1)
    const got = receiver.received[0]
    assert.equal(got.headers['content-type'], 'application/json')
    assert.equal(got.headers['polar-webhook-event'], 'SLEEP')
    assert.equal(got.headers['polar-webhook-signature'], hmac(secret, got.body))
    assert.equal(got.body, delivery!.body)
    const userId = sim.polarUserIdOf(TOKEN)
    assert.deepEqual(Object.keys(got.json), ['event', 'user_id', 'date', 'timestamp', 'url'])
    assert.deepInclude(got.json, {
      event: 'SLEEP',
      user_id: userId,
      date: addDays(TODAY, -1),
      url: `${sim.url}/v3/users/sleep/${addDays(TODAY, -1)}`,
    })
    assert.match(got.json.timestamp as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    assert.deepEqual(
      sim.deliveries().map((d) => [d.event, d.userId, d.status]),
      [['SLEEP', userId, 200]]
    )
  })

  test('publishDay sends the day of a watch sync, with URLs the simulator serves', async ({ assert }) => {
    const date = await trainingDate()
    const sent = await sim.publishDay(date)
    const userId = sim.polarUserIdOf(TOKEN)
    const exercises = ((await call(sim, 'GET', '/v3/exercises', undefined, `Bearer ${TOKEN}`)).body as Array<{ id: string; start_time: string }>)
      .filter((e) => e.start_time.startsWith(date))
      .map((e) => e.id)
    assert.isNotEmpty(exercises)

    const events = receiver.events()
    assert.lengthOf(events, sent.length)
    assert.deepEqual(
      events.map((e) => e.json.event),
      ['SLEEP', 'ACTIVITY_SUMMARY', ...exercises.map(() => 'EXERCISE'), 'CONTINUOUS_HEART_RATE', 'SLEEP_WISE_CIRCADIAN_BEDTIME', 'SLEEP_WISE_ALERTNESS']
    )
    const byEvent = (name: string) => events.filter((e) => e.json.event === name).map((e) => e.json)
    assert.deepEqual(byEvent('EXERCISE').map((e) => e.entity_id), exercises)
    for (const e of byEvent('EXERCISE')) {
      assert.deepEqual(Object.keys(e), ['event', 'user_id', 'entity_id', 'timestamp', 'url'])
      assert.equal(e.url, `${sim.url}/v3/exercises/${e.entity_id}`)
    }
    assert.equal(byEvent('ACTIVITY_SUMMARY')[0].url, `${sim.url}/v3/users/activities/${date}`)
    assert.equal(byEvent('CONTINUOUS_HEART_RATE')[0].url, `${sim.url}/v3/users/continuous-heart-rate/${date}`)
    const bedtime = byEvent('SLEEP_WISE_CIRCADIAN_BEDTIME')[0]
    assert.deepEqual(Object.keys(bedtime), ['event', 'user_id', 'from', 'to', 'timestamp', 'url'])
    assert.deepInclude(bedtime, { from: date, to: date, url: `${sim.url}/v3/users/sleepwise/circadian-bedtime/date?from=${date}&to=${date}` })
    assert.equal(byEvent('SLEEP_WISE_ALERTNESS')[0].url, `${sim.url}/v3/users/sleepwise/alertness/date?from=${date}&to=${date}`)

    for (const e of events) {
      assert.equal(e.json.user_id, userId)
      assert.equal(e.headers['polar-webhook-signature'], hmac(secret, e.body))
      const fetched = await call(sim, 'GET', (e.json.url as string).slice(sim.url.length), undefined, `Bearer ${TOKEN}`)
      assert.equal(fetched.status, 200, `${e.json.url}`)
      if (e.json.event === 'EXERCISE') assert.equal(fetched.body.id, e.json.entity_id)
      if (e.json.date) assert.equal(fetched.body.date ?? fetched.body.start_time.slice(0, 10), date)
    }
    assert.isTrue(sent.every((d: WebhookDelivery) => d.status === 200 && !d.duplicate && d.ms >= 0))
  })

  test('publishDay skips what the endpoints would not serve (missing days, empty accounts, old dates)', async ({ assert }) => {
    for (const token of ['tok-unworn', 'empty-account']) assert200(await call(sim, 'GET', '/v3/users/sleep', undefined, `Bearer ${token}`))
    const unworn = sim.polarUserIdOf('tok-unworn')
    const empty = sim.polarUserIdOf('empty-account')
    assert.includeMembers(sim.knownUsers(), [sim.polarUserIdOf(TOKEN), unworn, empty])

    await sim.publishDay(TODAY, { users: ['tok-unworn', 'empty-account'] })
    const events = receiver.events().map((e) => e.json)
    assert.isFalse(events.some((e) => e.user_id === empty))
    assert.isFalse(events.some((e) => ['SLEEP', 'CONTINUOUS_HEART_RATE', 'SLEEP_WISE_ALERTNESS', 'SLEEP_WISE_CIRCADIAN_BEDTIME'].includes(e.event as string)))
    for (const e of events) {
      const fetched = await call(sim, 'GET', (e.url as string).slice(sim.url.length), undefined, 'Bearer tok-unworn')
      assert.equal(fetched.status, 200, `${e.url}`)
    }

    receiver.received.length = 0
    assert.deepEqual(await sim.publishDay(addDays(TODAY, -60)), [])
    assert.lengthOf(receiver.received, 0)
  })

  test('only subscribed events, only while active; setToday sends nothing; no future days', async ({ assert }) => {
    const hook = sim.webhook()!
    assert.equal((await call(sim, 'PATCH', `/v3/webhooks/${hook.id}`, { events: ['SLEEP'] })).status, 200)
    await sim.publishDay(await trainingDate())
    assert.deepEqual([...new Set(receiver.events().map((e) => e.json.event))], ['SLEEP'])
    assert.isNull(await sim.emitEvent(TOKEN, 'EXERCISE'))

    receiver.received.length = 0
    assert.equal((await call(sim, 'POST', '/v3/webhooks/deactivate')).status, 200)
    assert.deepEqual(await sim.publishDay(TODAY), [])
    assert.isNull(await sim.emitEvent(TOKEN, 'SLEEP'))
    sim.setToday(addDays(TODAY, 1))
    sim.setToday(TODAY)
    await assert.rejects(() => sim.publishDay(addDays(TODAY, 1)), /after the simulator's today/)
    assert.lengthOf(receiver.received, 0)
  })

  test('emitEvent fills exercise and physical-information payloads', async ({ assert }) => {
    const userId = sim.polarUserIdOf(TOKEN)
    const exercise = await sim.emitEvent(userId, 'EXERCISE')
    assert.deepEqual(Object.keys(exercise!.payload), ['event', 'user_id', 'entity_id', 'timestamp', 'url'])
    assert.equal((await call(sim, 'GET', `/v3/exercises/${exercise!.payload.entity_id}`, undefined, `Bearer ${TOKEN}`)).status, 200)

    const physical = await sim.emitEvent(TOKEN, 'PHYSICAL_INFORMATION', { timestamp: '2026-11-22T07:00:00Z' })
    assert.deepEqual(physical!.payload, {
      event: 'PHYSICAL_INFORMATION',
      user_id: userId,
      timestamp: '2026-11-22T07:00:00Z',
      url: `${sim.url}/v3/users/physical-info`,
    })
    const info = await call(sim, 'GET', '/v3/users/physical-info', undefined, `Bearer ${TOKEN}`)
    assert.equal(info.status, 200)
    assert.properties(info.body, ['weight', 'height', 'birthday', 'gender', 'maximum_heart_rate', 'resting_heart_rate', 'vo2_max', 'sleep_goal'])
    assert.equal(sim.requestsTo('physical_info').at(-1)!.status, 200)
    await assert.rejects(() => sim.emitEvent(TOKEN, 'RECHARGE' as never), /unknown event/)
  })

  test('duplicates send every event twice with the same body and signature', async ({ assert }) => {
    const date = await trainingDate()
    sim.setWebhookOptions({ duplicates: true })
    const sent = await sim.publishDay(date, { users: [TOKEN] })
    const events = receiver.events()
    assert.lengthOf(events, sent.length)
    assert.equal(sent.filter((d) => d.duplicate).length, sent.length / 2)
    for (let i = 0; i < events.length; i += 2) {
      assert.equal(events[i].body, events[i + 1].body)
      assert.equal(events[i].headers['polar-webhook-signature'], events[i + 1].headers['polar-webhook-signature'])
    }
  })

  test('reorder shuffles the batch but sends the same events', async ({ assert }) => {
    const date = await trainingDate()
    await sim.publishDay(date, { users: [TOKEN] })
    const inOrder = receiver.events().map((e) => e.body)
    receiver.received.length = 0
    sim.setWebhookOptions({ reorder: true })
    await sim.publishDay(date, { users: [TOKEN] })
    const shuffled = receiver.events().map((e) => e.body)
    const strip = (bodies: string[]) => bodies.map((b) => b.replace(/"timestamp":"[^"]+"/, '')).sort()
    assert.deepEqual(strip(shuffled), strip(inOrder))
    assert.notDeepEqual(shuffled.map((b) => JSON.parse(b).event + JSON.parse(b).entity_id), inOrder.map((b) => JSON.parse(b).event + JSON.parse(b).entity_id))
  })

  test('badSignature signs with another key; delayMs waits before each delivery', async ({ assert }) => {
    sim.setWebhookOptions({ badSignature: true, delayMs: 30 })
    const started = Date.now()
    await sim.emitEvent(TOKEN, 'ACTIVITY_SUMMARY', { date: TODAY })
    await sim.emitEvent(TOKEN, 'CONTINUOUS_HEART_RATE', { date: TODAY })
    assert.isAtLeast(Date.now() - started, 55)
    for (const got of receiver.events()) {
      assert.match(got.headers['polar-webhook-signature'] as string, /^[0-9a-f]{64}$/)
      assert.notEqual(got.headers['polar-webhook-signature'], hmac(secret, got.body))
    }
  })

  test('logs failed deliveries and forgets de-registered users', async ({ assert }) => {
    receiver.control.status = 500
    const failed = await sim.emitEvent(TOKEN, 'SLEEP')
    assert.equal(failed!.status, 500)
    receiver.control.status = 200

    const token = 'tok-leaving'
    assert.equal((await call(sim, 'POST', '/v3/users', { 'member-id': 'leaving-1' }, `Bearer ${token}`)).status, 200)
    assert.include(sim.knownUsers(), sim.polarUserIdOf(token))
    assert.equal((await call(sim, 'DELETE', `/v3/users/${sim.polarUserIdOf(token)}`, undefined, `Bearer ${token}`)).status, 204)
    assert.notInclude(sim.knownUsers(), sim.polarUserIdOf(token))
  })
})

test.group('Polar simulator | rate limits', () => {
  async function hit(sim: PolarSimulator, auth = 'Bearer tok-rate') {
    return call(sim, 'GET', '/v3/users/sleep', undefined, auth)
  }

  test('enforces the short window and resets it when the simulated clock passes it', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY, rateLimit: { short: 3, long: 100 } })
    try {
      for (let i = 0; i < 3; i++) assert.equal((await hit(sim)).status, 200)
      const limited = await hit(sim)
      assert.equal(limited.status, 429)
      assert.equal(limited.text, '')
      assert.equal(limited.headers.get('ratelimit-usage'), '4,4')
      assert.equal(limited.headers.get('ratelimit-limit'), '3,100')
      assert.deepEqual(sim.rateLimitStatus().usage, [4, 4])
      sim.advanceClock(900_000)
      const after = await hit(sim)
      assert.equal(after.status, 200)
      assert.equal(after.headers.get('ratelimit-usage'), '1,5')
      assert.match(after.headers.get('ratelimit-reset')!, /^900,\d+$/)
    } finally {
      await sim.close()
    }
  })

  test('enforces the long window until a day has passed; resetRateLimits starts over', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY, rateLimit: { short: 100, long: 2, shortWindowSeconds: 60 } })
    try {
      assert.equal((await hit(sim)).status, 200)
      assert.match((await hit(sim)).headers.get('ratelimit-reset')!, /^(59|60),86400$/)
      assert.equal((await hit(sim)).status, 429)
      sim.advanceClock(15 * 60_000)
      assert.equal((await hit(sim)).status, 429)
      sim.advanceClock(86_400_000)
      assert.equal((await hit(sim)).status, 200)
      assert.equal((await hit(sim)).status, 200)
      assert.equal((await hit(sim)).status, 429)
      sim.resetRateLimits()
      assert.equal((await hit(sim)).status, 200)
    } finally {
      await sim.close()
    }
  })

  test('counts per client when clients are configured, scaled by their registered users', async ({ assert }) => {
    const basic = (id: string) => `Basic ${Buffer.from(`${id}:x`).toString('base64')}`
    const sim = await startPolarSimulator({ today: TODAY, clients: { a: 'x', b: 'x' }, rateLimit: { short: 2, long: 100 } })
    try {
      assert.equal((await call(sim, 'GET', '/v3/webhooks', undefined, basic('a'))).status, 200)
      const second = await call(sim, 'GET', '/v3/webhooks', undefined, basic('a'))
      assert.equal(second.headers.get('ratelimit-usage'), '2,2')
      assert.equal((await call(sim, 'GET', '/v3/webhooks', undefined, basic('a'))).status, 429)
      const other = await call(sim, 'GET', '/v3/webhooks', undefined, basic('b'))
      assert.equal(other.status, 200)
      assert.equal(other.headers.get('ratelimit-usage'), '1,1')
      // Tokens not issued by the token endpoint count against the first configured client.
      assert.equal((await hit(sim)).status, 429)
      assert.deepEqual(sim.rateLimitStatus('b').usage, [1, 1])
      assert.deepEqual(sim.rateLimitStatus('b').limit, [2, 100])
    } finally {
      await sim.close()
    }
  })

  test('keeps one shared budget by default, with RateLimit headers on webhook answers too', async ({ assert }) => {
    const sim = await startPolarSimulator({ today: TODAY })
    try {
      await hit(sim)
      const hooks = await call(sim, 'GET', '/v3/webhooks', undefined, BASIC)
      assert.equal(hooks.headers.get('ratelimit-usage'), '2,2')
      assert.equal(hooks.headers.get('ratelimit-limit'), '500,5000')
      assert.equal((await call(sim, 'POST', '/v3/users', { 'member-id': 'm-1' }, 'Bearer tok-rate')).status, 200)
      assert.deepEqual(sim.rateLimitStatus().limit, [520, 5100])
    } finally {
      await sim.close()
    }
  })
})

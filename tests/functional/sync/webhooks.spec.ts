import { createHmac } from 'node:crypto'
import { test } from '@japa/runner'
import encryption from '@adonisjs/core/services/encryption'
import db from '@adonisjs/lucid/services/db'
import type { Worker } from '@adonisjs/queue'
import AppSetting from '#models/app_setting'
import User from '#models/user'
import { POLAR_WEBHOOK_SETTINGS } from '#services/polar/polar_webhook_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { createQueueWorker } from '#services/sync/background_runner'
import app from '@adonisjs/core/services/app'
import { completeToken, eventually, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
const SECRET = 'abe1f3ae-fd33-11e8-8eb2-f2801f1b9fd1'
const URL_PATH = '/webhooks/polar'

const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex')

/** A user connected with `token` and bound to its simulated Polar account. */
async function connectedUser(ctx: SimulatorContext, externalId: string, token: string) {
  const user = await User.create({ externalId, isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
  await (await app.container.make(ProviderTokenService)).store(user, token)
  return user
}

/** Stores the signature secret as a registration does. */
async function storeSecret(secret = SECRET) {
  await AppSetting.updateOrCreate(
    { key: POLAR_WEBHOOK_SETTINGS.secret },
    { key: POLAR_WEBHOOK_SETTINGS.secret, value: encryption.encrypt(secret), isEncrypted: true }
  )
}

/** Polar-side requests after `from` (index into the simulator's request log). */
const callsSince = (ctx: SimulatorContext, from: number) => ctx.sim.requests.slice(from).filter((r) => r.path.startsWith('/v3/'))

test.group('Sync | Polar webhook receiver', (group) => {
  let ctx: SimulatorContext
  let worker: Worker | null = null
  group.each.setup(async () => {
    ctx = await startSimulatorContext(TODAY)
    const cleanup = await freshDatabase()
    await storeSecret()
    return async () => {
      if (worker) await worker.stop()
      worker = null
      await ctx.close()
      await cleanup()
    }
  })

  const post = (client: any, payload: unknown, signature?: string | null) => {
    const body = JSON.stringify(payload)
    const request = client.post(URL_PATH).header('Content-Type', 'application/json').json(payload)
    if (signature !== null) request.header('Polar-Webhook-Signature', signature ?? sign(body))
    return request
  }

  const startWorker = async () => {
    worker = await createQueueWorker(2)
    void worker.start(['default'])
  }

  test('an unsigned PING is answered 200 and calls nothing', async ({ client, assert }) => {
    const before = ctx.sim.requests.length
    const response = await post(client, { timestamp: '2026-03-15T07:00:00Z', event: 'PING' }, null)
    response.assertStatus(200)
    assert.deepEqual(response.body(), { status: 'pong' })
    assert.lengthOf(callsSince(ctx, before), 0)
  })

  test('a signed SLEEP event stores that night and its recharge with at most 3 calls and no list call', async ({ client, assert }) => {
    const token = completeToken('sleeper')
    const user = await connectedUser(ctx, 'sleeper', token)
    const date = TODAY
    const before = ctx.sim.requests.length
    const response = await post(client, { event: 'SLEEP', user_id: ctx.sim.polarUserIdOf(token), date, timestamp: `${date}T07:02:11Z`, url: `${ctx.sim.url}/v3/users/sleep/${date}` })
    response.assertStatus(200)
    assert.equal(response.body().status, 'queued')
    assert.isString(response.body().job_id)
    // Nothing is fetched inside the request.
    assert.lengthOf(callsSince(ctx, before), 0)

    await startWorker()
    const sleep = await eventually(() => db.from('sleep_records').where({ user_id: user.id, date }).first())
    const recharge = await eventually(() => db.from('nightly_recharges').where({ user_id: user.id, date }).first())
    assert.equal(sleep.date, date)
    assert.equal(recharge.date, date)
    const calls = callsSince(ctx, before)
    assert.isAtMost(calls.length, 3)
    assert.deepEqual(calls.map((c) => c.path).sort(), [`/v3/users/nightly-recharge/${date}`, `/v3/users/sleep/${date}`])
    const [{ n }] = await db.from('sleep_records').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), 1, 'only the night the event names')
  })

  test('an EXERCISE event stores that exercise with its details in one call', async ({ client, assert }) => {
    const token = completeToken('runner')
    const user = await connectedUser(ctx, 'runner', token)
    const list = (await (await fetch(`${ctx.sim.url}/v3/exercises`, { headers: { Authorization: `Bearer ${token}` } })).json()) as Array<{ id: string }>
    const id = list[list.length - 1].id
    const before = ctx.sim.requests.length
    ;(await post(client, { event: 'EXERCISE', user_id: ctx.sim.polarUserIdOf(token), entity_id: id, timestamp: `${TODAY}T09:00:00Z`, url: `${ctx.sim.url}/v3/exercises/${id}` })).assertStatus(200)

    await startWorker()
    const row = await eventually(() => db.from('exercises').where({ user_id: user.id, polar_exercise_id: id }).first())
    assert.equal(row.polar_exercise_id, id)
    const calls = callsSince(ctx, before)
    assert.lengthOf(calls, 1)
    assert.equal(calls[0].path, `/v3/exercises/${id}`)
  })

  test('ACTIVITY_SUMMARY and CONTINUOUS_HEART_RATE fetch only their day', async ({ client, assert }) => {
    const token = completeToken('walker')
    const user = await connectedUser(ctx, 'walker', token)
    const polarId = ctx.sim.polarUserIdOf(token)
    const before = ctx.sim.requests.length
    ;(await post(client, { event: 'ACTIVITY_SUMMARY', user_id: polarId, date: TODAY })).assertStatus(200)
    ;(await post(client, { event: 'CONTINUOUS_HEART_RATE', user_id: polarId, date: TODAY })).assertStatus(200)

    await startWorker()
    await eventually(() => db.from('daily_activities').where({ user_id: user.id, date: TODAY }).first())
    await eventually(() => db.from('heart_rate_days').where({ user_id: user.id, date: TODAY }).first())
    await eventually(() => db.from('cardio_loads').where({ user_id: user.id, date: TODAY }).first())
    const [{ n }] = await db.from('daily_activities').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), 1)
    const calls = callsSince(ctx, before)
    assert.isAtMost(calls.length, 3)
    for (const call of calls) {
      const range = call.query.from !== undefined ? `${call.query.from}…${call.query.to}` : call.path
      assert.include(range, TODAY, `${call.path} is limited to the event's day`)
    }
  })

  test('a PHYSICAL_INFORMATION event stores the current physical information with one call', async ({ client, assert }) => {
    const token = completeToken('weigher')
    const user = await connectedUser(ctx, 'weigher', token)
    const polarId = ctx.sim.polarUserIdOf(token)
    const before = ctx.sim.requests.length
    ;(await post(client, { event: 'PHYSICAL_INFORMATION', user_id: polarId, timestamp: `${TODAY}T08:00:00Z` })).assertStatus(200)
    // A duplicate inside the dedup window fetches nothing more.
    ;(await post(client, { event: 'PHYSICAL_INFORMATION', user_id: polarId, timestamp: `${TODAY}T08:00:00Z` })).assertStatus(200)

    await startWorker()
    await eventually(() => db.from('physical_infos').where('user_id', user.id).first())
    const calls = callsSince(ctx, before)
    assert.deepEqual(
      calls.map((c) => c.path),
      ['/v3/users/physical-info']
    )
  })

  test('a {$self} signature is a 401 problem and nothing is fetched or queued')
    .with(['missing', 'wrong', 'malformed'] as const)
    .run(async ({ client, assert }, kind) => {
      const token = completeToken('victim')
      const user = await connectedUser(ctx, 'victim', token)
      const payload = { event: 'SLEEP', user_id: ctx.sim.polarUserIdOf(token), date: TODAY }
      const body = JSON.stringify(payload)
      const signature = kind === 'missing' ? null : kind === 'wrong' ? sign(body, 'not-the-secret') : 'zz-not-hex'
      const before = ctx.sim.requests.length
      const response = await post(client, payload, signature)
      response.assertStatus(401)
      assert.match(response.header('content-type') ?? '', /application\/problem\+json/)
      assert.equal(response.body().code, 'E_WEBHOOK_SIGNATURE')

      await startWorker()
      await new Promise((resolve) => setTimeout(resolve, 1500))
      assert.lengthOf(callsSince(ctx, before), 0)
      const [{ n }] = await db.from('sleep_records').where('user_id', user.id).count('* as n')
      assert.equal(Number(n), 0)
    })

  test('an event for a Polar account no user is bound to is a 200, ignored, with no call', async ({ client, assert }) => {
    const before = ctx.sim.requests.length
    const response = await post(client, { event: 'SLEEP', user_id: 99999999, date: TODAY })
    response.assertStatus(200)
    assert.equal(response.body().status, 'ignored')
    assert.lengthOf(callsSince(ctx, before), 0)
  })

  test('duplicate and reordered deliveries leave one row per natural key', async ({ client, assert }) => {
    const token = completeToken('twice')
    const user = await connectedUser(ctx, 'twice', token)
    const polarId = ctx.sim.polarUserIdOf(token)
    const days = ['2026-03-15', '2026-03-13', '2026-03-14', '2026-03-13', '2026-03-15']
    const statuses: string[] = []
    for (const date of days) statuses.push((await post(client, { event: 'SLEEP', user_id: polarId, date })).body().status)
    assert.deepEqual(statuses, ['queued', 'queued', 'queued', 'duplicate', 'duplicate'])

    await startWorker()
    await eventually(async () => {
      const [{ n }] = await db.from('nightly_recharges').where('user_id', user.id).count('* as n')
      return Number(n) === 3
    })
    const rows = await db.from('sleep_records').where('user_id', user.id).orderBy('date')
    assert.deepEqual(rows.map((r) => r.date), ['2026-03-13', '2026-03-14', '2026-03-15'])
  })

  test('bad bodies are 4xx problems, never 5xx', async ({ client, assert }) => {
    const notJson = await fetch(`http://127.0.0.1:${process.env.PORT}${URL_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Polar-Webhook-Signature': sign('{oops') },
      body: '{oops',
    })
    assert.equal(notJson.status, 400)
    assert.match(notJson.headers.get('content-type') ?? '', /application\/problem\+json/)
    const array = await post(client, [1, 2, 3])
    array.assertStatus(400)
    const noDate = await post(client, { event: 'SLEEP', user_id: 1 })
    noDate.assertStatus(422)
    assert.equal(noDate.body().code, 'E_INVALID_WEBHOOK_EVENT')
    const badDate = await post(client, { event: 'SLEEP', user_id: 1, date: '2026-02-30' })
    badDate.assertStatus(422)
    const unknown = await post(client, { event: 'PHYSICAL_INFORMATION', user_id: 1 })
    unknown.assertStatus(200)
    assert.equal(unknown.body().status, 'ignored')
  })
})

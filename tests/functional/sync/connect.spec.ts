import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Worker } from '@adonisjs/queue'
import User from '#models/user'
import OauthState from '#models/oauth_state'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { PolarConnectService } from '#services/polar/polar_connect_service'
import { createQueueWorker } from '#services/sync/background_runner'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { eventually, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const CALLBACK = 'http://127.0.0.1:3333/oauth/polar/callback'

/** The browser's part: "Authorize" on the simulator's consent page; returns code and state. */
async function approve(authorizeUrl: string, login: string) {
  const decision = new URL(authorizeUrl)
  decision.pathname = '/oauth2/authorization/decision'
  decision.searchParams.set('decision', 'allow')
  decision.searchParams.set('login', login)
  const response = await fetch(decision, { redirect: 'manual' })
  const location = new URL(response.headers.get('location')!)
  return { code: location.searchParams.get('code')!, state: location.searchParams.get('state')!, location }
}

test.group('Sync | OAuth connect', (group) => {
  let ctx: SimulatorContext
  let worker: Worker | null = null
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15', { requireRegistration: true })
    const cleanup = await freshDatabase()
    return async () => {
      await worker?.stop()
      worker = null
      await ctx.close()
      await cleanup()
    }
  })

  test('connect registers the user, stores the token encrypted, creates a scoped key and back-fills', async ({ client, assert }) => {
    await new PolarCredentialsService().save('admin-client', 'admin-secret')
    const connect = await app.container.make(PolarConnectService)
    const { url, state } = await connect.authorizeUrl(CALLBACK)
    const authorize = new URL(url)
    assert.equal(authorize.searchParams.get('state'), state)
    assert.equal(authorize.searchParams.get('redirect_uri'), CALLBACK)
    // Only the hash of the state is stored.
    assert.isNull(await OauthState.find(state))

    const approved = await approve(url, 'connect-athlete')
    assert.equal(approved.location.origin + approved.location.pathname, CALLBACK)
    const connected = await connect.complete(approved.code, approved.state, 10)

    const user = await User.findOrFail(connected.user.id)
    assert.equal(user.externalId, user.polarUserId)
    assert.equal(user.memberId, `hrvault-${user.polarUserId}`)
    assert.isNotNull(user.connectedAt)
    assert.isNotNull(user.providerTokenEncrypted)
    const token = await (await app.container.make(ProviderTokenService)).tokenFor(user)
    assert.match(token!, /^sim_/)
    assert.notInclude(user.providerTokenEncrypted!, token!)
    assert.lengthOf(ctx.sim.requestsTo('users'), 1)

    // The exchange used HTTP Basic client authentication and a form body.
    const exchange = ctx.sim.requestsTo('token')[0]
    assert.equal(exchange.auth, 'basic')
    assert.equal(exchange.method, 'POST')

    // The back-fill job runs and the user-scoped key reads the data.
    worker = await createQueueWorker(1)
    void worker.start(['default'])
    const run = await eventually(() => db.from('sync_runs').where('user_id', user.id).whereNotNull('finished_at').first())
    assert.equal(run.status, 'success')
    assert.equal(run.job_id, connected.backfillJobId)
    const sleep = await client.get(`/api/v1/users/${user.externalId}/sleep?days=10`).header('X-API-Key', connected.apiKey)
    sleep.assertStatus(200)
    assert.isAbove(sleep.body().length, 0)
    const other = await client.get('/api/v1/users/someone-else/sleep').header('X-API-Key', connected.apiKey)
    other.assertStatus(403)
  }).timeout(60_000)

  test('a state works once, and an unknown state is refused', async ({ assert }) => {
    await new PolarCredentialsService().save('admin-client', 'admin-secret')
    const connect = await app.container.make(PolarConnectService)
    const { url } = await connect.authorizeUrl(CALLBACK)
    const approved = await approve(url, 'once-athlete')
    await connect.complete(approved.code, approved.state)
    await assert.rejects(() => connect.complete(approved.code, approved.state), /state is invalid/)
    await assert.rejects(() => connect.complete(approved.code, 'forged-state'), /state is invalid/)
  })

  test('reconnecting an already registered user is fine (409 from Polar)', async ({ assert }) => {
    await new PolarCredentialsService().save('admin-client', 'admin-secret')
    const connect = await app.container.make(PolarConnectService)
    const first = await approve((await connect.authorizeUrl(CALLBACK)).url, 'twice-athlete')
    const a = await connect.complete(first.code, first.state)
    const second = await approve((await connect.authorizeUrl(CALLBACK)).url, 'twice-athlete')
    const b = await connect.complete(second.code, second.state)
    assert.isTrue(a.newlyRegistered)
    assert.isFalse(b.newlyRegistered)
    assert.equal(a.user.id, b.user.id)
    assert.equal(await User.query().count('* as n').then((r) => Number(r[0].$extras.n)), 1)
  })

  test('without client credentials connecting says what to configure', async ({ assert }) => {
    const connect = await app.container.make(PolarConnectService)
    await assert.rejects(() => connect.authorizeUrl(CALLBACK), /POLAR_CLIENT_ID/)
  })
})

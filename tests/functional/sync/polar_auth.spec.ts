import { test } from '@japa/runner'
import { freePort } from '#tests/helpers/free_port'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import db from '@adonisjs/lucid/services/db'
import type { Worker } from '@adonisjs/queue'
import User from '#models/user'
import PolarAuthCommand from '#commands/polar_auth'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { LocalTokenStore } from '#services/polar/local_token_store'
import { PolarConnectService } from '#services/polar/polar_connect_service'
import { createQueueWorker } from '#services/sync/background_runner'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { eventually, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

/** Plays the user's browser: opens the authorize page, clicks "Authorize", follows the redirect. */
async function authorizeInBrowser(authorizeUrl: string, login: string) {
  const page = await fetch(authorizeUrl)
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}`)
  const decision = new URL(authorizeUrl)
  decision.pathname = '/oauth2/authorization/decision'
  decision.searchParams.set('decision', 'allow')
  decision.searchParams.set('login', login)
  const redirect = await fetch(decision, { redirect: 'manual' })
  const location = redirect.headers.get('location')
  if (!location) throw new Error('no redirect from the authorize decision')
  const callback = await fetch(location)
  return { location, status: callback.status }
}

test.group('Sync | polar:auth', (group) => {
  let ctx: SimulatorContext
  let worker: Worker | null = null
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15', { requireRegistration: true })
    const cleanup = await freshDatabase()
    await new PolarCredentialsService().save('hrvault-test-client', 'hrvault-test-secret')
    return async () => {
      await worker?.stop()
      worker = null
      await new LocalTokenStore().remove()
      await ctx.close()
      await cleanup()
    }
  })

  test('polar:auth completes against the simulator and its token drives a background sync', async ({ assert }) => {
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`
    const command = await ace.create(PolarAuthCommand, ['--redirect-uri', redirectUri, '--days', '14'])
    command.ui.switchMode('raw')
    const running = command.exec()

    const authorizeUrl = await eventually(async () =>
      command.logger
        .getLogs()
        .map((log) => log.message)
        .find((message) => message.startsWith(ctx.sim.authUrl))
    )
    await eventually(async () => command.logger.getLogs().some((log) => log.message.includes('Waiting for Polar')))
    const url = new URL(authorizeUrl)
    assert.equal(url.searchParams.get('client_id'), 'hrvault-test-client')
    assert.equal(url.searchParams.get('redirect_uri'), redirectUri)
    assert.equal(url.searchParams.get('scope'), 'accesslink.read_all')

    const browser = await authorizeInBrowser(authorizeUrl, 'cli-athlete')
    assert.equal(browser.status, 200)
    await running
    assert.equal(command.exitCode ?? 0, 0, command.logger.getLogs().map((l) => l.message).join('\n'))

    // Token stored encrypted on the configuration volume, user registered and created.
    const store = new LocalTokenStore()
    const stored = await store.read()
    assert.isNotNull(stored)
    const raw = await readFile(store.path, 'utf8')
    assert.notInclude(raw, stored!.accessToken)
    assert.lengthOf(ctx.sim.requestsTo('users').filter((r) => r.method === 'POST'), 1)
    const tokenCall = ctx.sim.requestsTo('token')[0]
    assert.equal(tokenCall.auth, 'basic')
    const user = await User.findByOrFail('polarUserId', stored!.polarUserId)
    assert.equal(user.externalId, stored!.polarUserId)
    assert.isNull(user.providerTokenEncrypted)
    assert.isNotNull(user.connectedAt)

    // The back-fill job runs on the worker with the stored token (registration required by Polar).
    worker = await createQueueWorker(1)
    void worker.start(['default'])
    const run = await eventually(() => db.from('sync_runs').where('user_id', user.id).whereNotNull('finished_at').first())
    assert.equal(run.status, 'success')
    assert.equal(run.trigger, 'connect')
    const [{ n }] = await db.from('daily_activities').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), 14)

    // Background sync counts this user as connected.
    const connected = await (await app.container.make(ProviderTokenService)).connectedUsers()
    assert.deepEqual(
      connected.map((u) => u.id),
      [user.id]
    )
    const status = await ace.create(PolarAuthCommand, ['--status'])
    status.ui.switchMode('raw')
    await status.exec()
    const printed = status.logger.getLogs().map((l) => l.message).join('\n')
    assert.include(printed, stored!.polarUserId)
    assert.include(printed, 'registered, token accepted')
  }).timeout(60_000)

  test('a pasted redirect URL works and --revoke de-registers the user', async ({ assert }) => {
    const redirectUri = 'https://hrvault.example.com/oauth/polar/callback'
    // A code Polar never issued is refused.
    const first = await ace.create(PolarAuthCommand, ['--redirect-uri', redirectUri, '--code', 'placeholder'])
    first.ui.switchMode('raw')
    await first.exec()
    assert.equal(first.exitCode, 1)

    // The browser runs elsewhere and ends on a page this machine cannot serve: the URL is pasted.
    const service = await app.container.make(PolarConnectService)
    const { url } = await service.authorizeUrl(redirectUri, 'polar_cli')
    const decision = new URL(url)
    decision.pathname = '/oauth2/authorization/decision'
    decision.searchParams.set('decision', 'allow')
    decision.searchParams.set('login', 'remote-athlete')
    const redirect = await fetch(decision, { redirect: 'manual' })
    const pasted = redirect.headers.get('location')!

    const command = await ace.create(PolarAuthCommand, ['--redirect-uri', redirectUri, '--code', pasted])
    command.ui.switchMode('raw')
    await command.exec()
    assert.equal(command.exitCode ?? 0, 0, command.logger.getLogs().map((l) => l.message).join('\n'))
    const stored = await new LocalTokenStore().read()
    assert.isNotNull(stored)

    // The same state cannot be used twice.
    const replay = await ace.create(PolarAuthCommand, ['--redirect-uri', redirectUri, '--code', pasted])
    replay.ui.switchMode('raw')
    await replay.exec()
    assert.equal(replay.exitCode, 1)

    const revoke = await ace.create(PolarAuthCommand, ['--revoke'])
    revoke.ui.switchMode('raw')
    await revoke.exec()
    assert.equal(revoke.exitCode ?? 0, 0)
    assert.isNull(await new LocalTokenStore().read())
    assert.lengthOf(ctx.sim.requestsTo('users').filter((r) => r.method === 'DELETE'), 1)
  }).timeout(60_000)
})

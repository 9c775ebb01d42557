import { test } from '@japa/runner'
import ace from '@adonisjs/core/services/ace'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Worker } from '@adonisjs/queue'
import AppSetting from '#models/app_setting'
import User from '#models/user'
import PolarWebhookCommand from '#commands/polar_webhook'
import { POLAR_WEBHOOK_SETTINGS, PolarWebhookService } from '#services/polar/polar_webhook_service'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { createQueueWorker } from '#services/sync/background_runner'
import { SyncSchedulerService, reconcileIntervalMs, syncIntervalMs } from '#services/sync/sync_scheduler_service'
import { AdminBrowser, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { completeToken, eventually, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
const receiverUrl = () => `http://127.0.0.1:${process.env.PORT}/webhooks/polar`

async function runCommand(...argv: string[]) {
  const command = await ace.create(PolarWebhookCommand, argv)
  command.ui.switchMode('raw')
  await command.exec()
  const printed = [...command.logger.getLogs().map((log) => log.message), ...command.ui.logger.getLogs().map((log) => log.message)].join('\n')
  return { exitCode: command.exitCode ?? 0, printed }
}

test.group('Sync | Polar webhook registration and push', (group) => {
  let ctx: SimulatorContext
  let worker: Worker | null = null
  group.each.setup(async () => {
    ctx = await startSimulatorContext(TODAY)
    const cleanup = await freshDatabase()
    await new PolarCredentialsService().save('hrvault-test-client', 'hrvault-test-secret')
    return async () => {
      await worker?.stop()
      worker = null
      await ctx.close()
      await cleanup()
    }
  })

  test('register: Polar PINGs the receiver, the secret is stored encrypted and never printed', async ({ assert }) => {
    const { exitCode, printed } = await runCommand('register', '--url', receiverUrl())
    assert.equal(exitCode, 0, printed)

    const webhook = ctx.sim.webhook()
    assert.isNotNull(webhook)
    assert.equal(webhook!.url, receiverUrl())
    assert.includeMembers(webhook!.events, ['SLEEP', 'EXERCISE', 'ACTIVITY_SUMMARY', 'CONTINUOUS_HEART_RATE'])
    const ping = ctx.sim.deliveries().find((d) => d.event === 'PING')
    assert.equal(ping?.status, 200)

    const stored = await AppSetting.findOrFail(POLAR_WEBHOOK_SETTINGS.secret)
    assert.isTrue(Boolean(stored.isEncrypted))
    assert.notInclude(stored.value!, webhook!.secret)
    assert.notInclude(printed, webhook!.secret)

    const status = await runCommand('status')
    assert.include(status.printed, receiverUrl())
    assert.include(status.printed, 'yes')
    assert.notInclude(status.printed, webhook!.secret)
  })

  test('a second register gets Polar\'s 409 and says how to recover', async ({ assert }) => {
    assert.equal((await runCommand('register', '--url', receiverUrl())).exitCode, 0)
    const again = await runCommand('register', '--url', receiverUrl())
    assert.equal(again.exitCode, 1)
    assert.match(again.printed, /cannot be read again.*delete/is)

    const deleted = await runCommand('delete')
    assert.equal(deleted.exitCode, 0)
    assert.isNull(ctx.sim.webhook())
    assert.isNull(await AppSetting.find(POLAR_WEBHOOK_SETTINGS.secret))
    assert.equal((await runCommand('register', '--url', receiverUrl())).exitCode, 0)
  })

  test('a receiver that does not answer the PING is reported, and nothing is stored', async ({ assert }) => {
    const { exitCode, printed } = await runCommand('register', '--url', 'http://127.0.0.1:9/webhooks/polar')
    assert.equal(exitCode, 1)
    assert.match(printed, /refused/i)
    assert.isNull(await AppSetting.find(POLAR_WEBHOOK_SETTINGS.secret))
  })

  test('a simulated morning pushed by Polar is stored from the events alone, duplicates and reordering included', async ({ assert }) => {
    assert.equal((await runCommand('register', '--url', receiverUrl())).exitCode, 0)
    const tokens = await app.container.make(ProviderTokenService)
    const users = []
    for (const name of ['push_a', 'push_b']) {
      const token = completeToken(name)
      const user = await User.create({ externalId: name, isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
      await tokens.store(user, token)
      // The simulator sends events for accounts whose token it has seen.
      await fetch(`${ctx.sim.url}/v3/users/sleep`, { headers: { Authorization: `Bearer ${token}` } })
      users.push(user)
    }
    ctx.sim.setWebhookOptions({ duplicates: true, reorder: true })
    const before = ctx.sim.requests.length
    const deliveries = await ctx.sim.publishDay(TODAY)
    assert.isAbove(deliveries.length, 4)
    for (const delivery of deliveries) assert.equal(delivery.status, 200, JSON.stringify(delivery.response))

    worker = await createQueueWorker(4)
    void worker.start(['default'])
    for (const user of users) {
      await eventually(() => db.from('sleep_records').where({ user_id: user.id, date: TODAY }).first())
      await eventually(() => db.from('nightly_recharges').where({ user_id: user.id, date: TODAY }).first())
      await eventually(() => db.from('daily_activities').where({ user_id: user.id, date: TODAY }).first())
      await eventually(() => db.from('heart_rate_days').where({ user_id: user.id, date: TODAY }).first())
    }
    // Only targeted calls: no 28-day list was fetched.
    const calls = ctx.sim.requests.slice(before).filter((r) => r.path.startsWith('/v3/users') || r.path.startsWith('/v3/exercises'))
    assert.notInclude(calls.map((c) => c.path), '/v3/users/sleep')
    assert.notInclude(calls.map((c) => c.path), '/v3/exercises')
    for (const user of users) {
      for (const table of ['sleep_records', 'nightly_recharges', 'daily_activities', 'heart_rate_days']) {
        const [{ n }] = await db.from(table).where('user_id', user.id).count('* as n')
        assert.equal(Number(n), 1, `${table} of ${user.externalId}`)
      }
    }
  })

  test('the admin Polar page registers, shows and deletes the webhook, never its secret', async ({ assert }) => {
    await resetLoginThrottle()
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()

    let page = await browser.visit('/admin/polar')
    assert.containsSubset(page.page!.props.webhook, { registered: false, secret_stored: false })
    await browser.post('/admin/polar/webhook', { url: receiverUrl() })
    page = await browser.visit('/admin/polar')
    assert.match(page.page!.props.flash.success, /Webhook registered/)
    assert.containsSubset(page.page!.props.webhook, { registered: true, active: true, secret_stored: true, url: receiverUrl() })
    assert.notInclude(page.text, ctx.sim.webhook()!.secret)

    // The budget card's data comes in a second (deferred) request, after the page is shown.
    assert.notProperty(page.page!.props, 'budget')
    const partial = await browser.request('GET', '/admin/polar', {
      inertia: true,
      headers: { 'X-Inertia-Partial-Component': 'polar', 'X-Inertia-Partial-Data': 'budget', 'X-Inertia-Version': String(page.page!.version ?? '') },
    })
    assert.equal(partial.status, 200, partial.text.slice(0, 300))
    const budget = partial.page!.props.budget
    assert.sameMembers(budget.windows.map((w: { window: string }) => w.window), ['short', 'long'])
    for (const window of budget.windows) assert.isAbove(window.limit, 0)

    await browser.request('DELETE', '/admin/polar/webhook', { form: {} })
    page = await browser.visit('/admin/polar')
    assert.containsSubset(page.page!.props.webhook, { registered: false, secret_stored: false })
    assert.isNull(ctx.sim.webhook())
  })

  test('while a webhook is registered the full sync only reconciles, once per POLAR_RECONCILE_INTERVAL_MINUTES', async ({ assert }) => {
    const scheduler = await app.container.make(SyncSchedulerService)
    assert.equal(await scheduler.intervalMs(), syncIntervalMs())
    assert.equal((await runCommand('register', '--url', receiverUrl())).exitCode, 0)
    assert.equal(await scheduler.intervalMs(), reconcileIntervalMs())
    assert.isTrue(await (await app.container.make(PolarWebhookService)).isActive())
    await runCommand('delete')
    assert.equal(await scheduler.intervalMs(), syncIntervalMs())
  })
})

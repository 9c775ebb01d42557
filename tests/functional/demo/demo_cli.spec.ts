import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import type { Worker } from '@adonisjs/queue'
import env from '#start/env'
import ApiKey from '#models/api_key'
import User from '#models/user'
import { ApiKeyService } from '#services/auth/api_key_service'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { createQueueWorker } from '#services/sync/background_runner'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { connectDemoUser } from '#simulators/demo_connector'
import {
  DEMO_CLIENT,
  demoCommands,
  readDemoState,
  startDemoSimulator,
  writeDemoSettings,
  writeDemoState,
} from '#simulators/demo_settings'
import type { PolarSimulator } from '#simulators/polar/simulator'
import { freePort } from '#tests/helpers/free_port'
import { freshDatabase } from '#tests/functional/sync/simulator_context'

const appUrl = () => `http://127.0.0.1:${env.get('PORT')}`

/** `node ace <args>` of a printed command, without the `ENV_PATH=… node ace` in front. */
const aceArgs = (command: string) => command.replace(/^ENV_PATH=\S+ node ace /, '').split(' ')

/** The test run's own database, as settings for a process that reads nothing else. */
function testDatabase(): Record<string, string> {
  return env.get('DB_CONNECTION') === 'pg'
    ? { DB_CONNECTION: 'pg', DATABASE_URL: env.get('DATABASE_URL')! }
    : { DB_CONNECTION: 'sqlite', SQLITE_PATH: env.get('SQLITE_PATH')! }
}

/**
 * Runs a printed command as a separate `node ace` whose only variable (besides PATH and HOME) is
 * ENV_PATH. Asynchronously: the simulator it calls answers from this process.
 */
function nodeAce(command: string, envPath: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['ace.js', ...aceArgs(command)], {
      cwd: app.makePath(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ENV_PATH: envPath },
      timeout: 60_000,
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

test.group('Demo | its commands work against its database and simulator', (group) => {
  let sim: PolarSimulator
  let worker: Worker | null = null
  let dir: string

  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    sim = await startDemoSimulator({ port: await freePort(), days: 5 })
    app.container.swap(
      PolarClientFactory,
      () => new PolarClientFactory({ baseUrl: sim.url, authUrl: sim.authUrl, tokenUrl: sim.tokenUrl, retryDelayMs: 5 })
    )
    await new ProviderRateLimitService().clear()
    // The demo's client credentials come from its settings file; this process reads them from the database.
    await new PolarCredentialsService().save(DEMO_CLIENT.id, DEMO_CLIENT.secret)
    worker = await createQueueWorker(1)
    void worker.start(['default'])
    dir = mkdtempSync(join(tmpdir(), 'hrvault-demo-'))
    return async () => {
      await worker?.stop()
      worker = null
      app.container.restore(PolarClientFactory)
      await sim.close()
      rmSync(dir, { recursive: true, force: true })
      await cleanup()
    }
  })

  test('a restart reuses the key it printed; a revoked one is replaced', async ({ assert }) => {
    const first = await connectDemoUser({ login: 'demo-athlete', days: 5, appUrl: appUrl() })
    assert.isFalse(first.reused)
    writeDemoState(dir, { user_id: first.userId, api_key: first.apiKey })

    const again = await connectDemoUser({ login: 'demo-athlete', days: 5, appUrl: appUrl(), previousKey: readDemoState(dir)!.api_key })
    assert.isTrue(again.reused)
    assert.equal(again.apiKey, first.apiKey)
    const user = await User.findByOrFail('externalId', first.userId)
    assert.lengthOf(await ApiKey.query().where('userId', user.id), 1)

    await (await app.container.make(ApiKeyService)).revoke(first.apiKey.slice(0, 12))
    const replaced = await connectDemoUser({ login: 'demo-athlete', days: 5, appUrl: appUrl(), previousKey: first.apiKey })
    assert.isFalse(replaced.reused)
    assert.notEqual(replaced.apiKey, first.apiKey)
  }).timeout(60_000)

  test('the printed commands run through the Ace kernel on the demo user', async ({ assert }) => {
    const demo = await connectDemoUser({ login: 'demo-athlete', days: 5, appUrl: appUrl() })
    await worker?.stop()
    worker = null
    const commands = demoCommands('storage/demo', demo.userId)
    assert.deepEqual(commands.map((command) => aceArgs(command)[0]), ['sync:status', 'sync', 'api-key'])
    const printed: string[] = []
    // Raw mode keeps what the commands print (tables included) as log entries.
    ace.ui.switchMode('raw')
    try {
      for (const command of commands) {
        const [name, ...args] = aceArgs(command)
        const run = await ace.exec(name, args)
        assert.equal(run.exitCode, 0, `${command} failed`)
        printed.push(ace.ui.logger.getLogs().map((log) => log.message).join('\n'))
        ace.ui.logger.flushLogs()
      }
    } finally {
      ace.ui.switchMode('normal')
    }
    assert.include(printed[0], demo.userId)
    assert.match(printed[1], /success/)
    assert.match(printed[2], /hrv_[A-Za-z0-9_-]{43}/)
  }).timeout(60_000)

  test('node ace reads the settings file the demo writes, and nothing else', async ({ assert }) => {
    const demo = await connectDemoUser({ login: 'demo-athlete', days: 5, appUrl: appUrl() })
    await worker?.stop()
    worker = null
    const settings = writeDemoSettings({
      dir,
      port: Number(env.get('PORT')),
      simulator: sim,
      storageDir: dir,
      database: testDatabase(),
      appKey: env.get('APP_KEY').release(),
    })
    assert.equal(settings.POLAR_API_BASE_URL, sim.url)
    assert.match(readFileSync(join(dir, '.env'), 'utf8'), new RegExp(`^POLAR_API_BASE_URL=${sim.url}$`, 'm'))

    sim.clearRequests()
    const [status, sync] = demoCommands(dir, demo.userId)
    const statusRun = await nodeAce(status, dir)
    assert.equal(statusRun.code, 0, statusRun.output)
    const syncRun = await nodeAce(sync, dir)
    assert.include(statusRun.output, demo.userId)
    assert.equal(syncRun.code, 0, syncRun.output)
    assert.match(syncRun.output, /success/)
    assert.isAbove(sim.requestsTo('sleep').length, 0)
  }).timeout(90_000)
})

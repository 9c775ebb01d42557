/*
|--------------------------------------------------------------------------
| Demo: HRVault + the Polar simulator in one process
|--------------------------------------------------------------------------
|
| `npm run demo [-- --port 3333 --days 90 --simulator-port 4010]` starts the
| Polar AccessLink simulator on loopback (port 4010 unless told otherwise),
| serves HRVault (web + worker + scheduler) against it, connects a demo user
| through the real OAuth flow and back-fills 90 days, so every endpoint has
| data without a Polar account. Everything of the demo lives in storage/demo/:
| its settings (.env, read by `ENV_PATH=storage/demo node ace …`), its
| database and demo.json with the API key, which a restart reuses.
|
*/
import 'reflect-metadata'
import { spawnSync } from 'node:child_process'
import { isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import {
  DEMO_SIMULATOR_PORT,
  demoCommands,
  readDemoState,
  startDemoSimulator,
  writeDemoSettings,
  writeDemoState,
} from '#simulators/demo_settings'
import { prepareFirstStart } from './bootstrap_env.js'
import { APP_ROOT, IMPORTER } from './app_root.js'

const { values } = parseArgs({
  options: {
    'port': { type: 'string', default: '3333' },
    'days': { type: 'string', default: '90' },
    'simulator-port': { type: 'string', default: String(DEMO_SIMULATOR_PORT) },
    'login': { type: 'string', default: 'demo-athlete' },
  },
})
const days = Math.min(365, Math.max(1, Number(values.days) || 90))
const port = Number(values.port) || 3333
// storage/demo/, or STORAGE_DIR when the caller gives the demo a directory of its own (npm run screenshots).
const ENV_PATH = (process.env.STORAGE_DIR ?? 'storage/demo').replace(/\/+$/, '')
const dir = isAbsolute(ENV_PATH) ? ENV_PATH : fileURLToPath(new URL(`${ENV_PATH}/`, APP_ROOT))

const simulator = await startDemoSimulator({ port: Number(values['simulator-port']), days })

// The demo's settings are a file ace reads too; the checkout's own .env is not read.
writeDemoSettings({ dir, port, simulator })
process.env.ENV_PATH = ENV_PATH
prepareFirstStart(APP_ROOT)

// Bring the demo database up to date in a child `node ace migration:run` before serving.
const migrate = spawnSync(process.execPath, ['--import=@poppinss/ts-exec', 'bin/console.ts', 'migration:run', '--force'], {
  cwd: fileURLToPath(APP_ROOT),
  env: process.env,
  stdio: ['ignore', 'ignore', 'inherit'],
})
if (migrate.status !== 0) {
  await simulator.close()
  throw new Error('The demo database could not be migrated')
}

const ignitor = new Ignitor(APP_ROOT, { importer: IMPORTER })
ignitor.tap((app) => {
  app.booting(async () => {
    await import('#start/env')
  })
  app.listen('SIGTERM', () => app.terminate())
  app.listen('SIGINT', () => app.terminate())
  app.terminating(() => simulator.close())
})

try {
  await ignitor.httpServer().start()
  const { connectDemoUser } = await import('#simulators/demo_connector')
  const base = `http://127.0.0.1:${port}`
  const previous = readDemoState(dir)
  const result = await connectDemoUser({ login: values.login!, days, appUrl: base, previousKey: previous?.api_key })
  writeDemoState(dir, { user_id: result.userId, api_key: result.apiKey })
  const out = [
    '',
    'HRVault demo is ready.',
    `  Polar simulator:   ${simulator.url} (today ${simulator.today()}, ${days + 30}-day window)`,
    `  Demo user:         ${result.userId} (the Polar user id), back-filled ${days} days`,
    `  Stored:            ${result.summary}`,
    `  API key (user):    ${result.apiKey}${result.reused ? ' (the same as last time)' : ''}`,
    `  Settings:          ${ENV_PATH}/.env (database, simulator; ace reads them with ENV_PATH=${ENV_PATH})`,
    '',
    'Try:',
    `  curl -H "X-API-Key: ${result.apiKey}" "${base}/api/v1/users/${result.userId}/today"`,
    `  curl -H "X-API-Key: ${result.apiKey}" "${base}/api/v1/users/${result.userId}/sleep?days=7"`,
    `  curl -H "X-API-Key: ${result.apiKey}" "${base}/api/v1/users/${result.userId}/insights"`,
    ...demoCommands(ENV_PATH, result.userId).map((command) => `  ${command}`),
    `  API docs: ${base}/schema/swagger   Admin UI: ${base}/admin`,
    '',
    'Background sync keeps running against the simulator every SYNC_INTERVAL_MINUTES.',
    'Ctrl+C stops HRVault and the simulator.',
    '',
  ]
  process.stdout.write(out.join('\n'))
} catch (error) {
  process.exitCode = 1
  prettyPrintError(error)
  await simulator.close()
  await ignitor.terminate()
}

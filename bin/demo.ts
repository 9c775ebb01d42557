/*
|--------------------------------------------------------------------------
| Demo: HRVault + the Polar simulator in one process
|--------------------------------------------------------------------------
|
| `npm run demo [-- --port 3333 --days 90]` starts the Polar AccessLink
| simulator on loopback, points HRVault at it, serves HRVault (web + worker
| + scheduler), connects a demo user through the real OAuth flow and
| back-fills 90 days, so every endpoint has data without a Polar account.
| The demo keeps its own database under storage/demo/ (STORAGE_DIR).
|
*/
import 'reflect-metadata'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { startPolarSimulator } from '#simulators/polar/simulator'
import { prepareFirstStart } from './bootstrap_env.js'
import { APP_ROOT, IMPORTER } from './app_root.js'

const { values } = parseArgs({
  options: {
    'port': { type: 'string' },
    'days': { type: 'string', default: '90' },
    'simulator-port': { type: 'string', default: '0' },
    'login': { type: 'string', default: 'demo-athlete' },
  },
})
const days = Math.min(365, Math.max(1, Number(values.days) || 90))

// The simulator serves a window longer than the back-fill, with every data type for the demo user.
const simulator = await startPolarSimulator({
  port: Number(values['simulator-port']),
  window: days + 30,
  defaults: { biosensing: true, sleepwise: true, missingRate: 0.02 },
})

process.env.POLAR_API_BASE_URL = simulator.url
process.env.POLAR_AUTH_URL = simulator.authUrl
process.env.POLAR_TOKEN_URL = simulator.tokenUrl
process.env.POLAR_CLIENT_ID = 'hrvault-demo'
process.env.POLAR_CLIENT_SECRET = 'hrvault-demo-secret'
process.env.HRVAULT_ROLE = 'all'
// Everything of the demo (the simulators, a Coolify simulator's ops target) listens on loopback over http.
process.env.COOLIFY_OPS_ALLOW_PRIVATE ??= 'true'
process.env.STORAGE_DIR ??= new URL('storage/demo/', APP_ROOT).pathname
if (values.port) process.env.PORT = values.port

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
  const { default: env } = await import('#start/env')
  const base = `http://127.0.0.1:${env.get('PORT', 3333)}`
  const result = await connectDemoUser({ login: values.login!, days, appUrl: base })
  const out = [
    '',
    'HRVault demo is ready.',
    `  Polar simulator:   ${simulator.url} (today ${simulator.today()}, ${days + 30}-day window)`,
    `  Demo user:         ${result.userId} (the Polar user id), back-filled ${days} days`,
    `  Stored:            ${result.summary}`,
    `  API key (user):    ${result.apiKey}`,
    '',
    'Try:',
    `  curl -H "X-API-Key: ${result.apiKey}" "${base}/api/v1/users/${result.userId}/sleep?days=7"`,
    `  curl -H "X-API-Key: ${result.apiKey}" "${base}/api/v1/users/${result.userId}/insights"`,
    `  curl -H "X-API-Key: ${result.apiKey}" "${base}/api/v1/users/${result.userId}/baselines"`,
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

/*
|--------------------------------------------------------------------------
| OpenAPI examples from real answers
|--------------------------------------------------------------------------
|
| `npm run openapi:examples` starts HRVault on a throwaway database with the
| Polar and Coolify simulators, connects a user through the real OAuth flow,
| back-fills 90 days, then calls every documented operation and provokes each
| documented problem. The answers, shortened, are written to
| app/openapi/examples.json, which the served document reads. Run it again
| after changing a route or a schema.
|
*/
import 'reflect-metadata'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { startPolarSimulator } from '#simulators/polar/simulator'
import { start as startCoolifySimulator } from '#simulators/coolify/simulator'
import { SIM_UUIDS } from '#simulators/coolify/seed'
import { freePort } from '#tests/helpers/free_port'
import { APP_ROOT, IMPORTER } from './app_root.js'

const work = mkdtempSync(join(tmpdir(), 'hrvault-openapi-examples-'))
const port = await freePort()
const opsToken = randomBytes(24).toString('hex')
// The Coolify application's own OPS_TOKEN: the ops proxy spends its budgets, not the direct calls'.
const proxiedOpsToken = randomBytes(24).toString('hex')
const opsLimitedToken = randomBytes(24).toString('hex')
const opsHealthOnlyToken = randomBytes(24).toString('hex')

const polar = await startPolarSimulator({ window: 120, defaults: { biosensing: true, sleepwise: true, missingRate: 0.02 } })
const coolify = await startCoolifySimulator({ opsAppFqdn: `http://127.0.0.1:${port}`, opsToken: proxiedOpsToken, opsPrefix: '/ops' })

// Only these settings: no .env of the checkout is read (ENV_PATH points at an empty directory).
Object.assign(process.env, {
  ENV_PATH: work,
  APP_KEY: randomBytes(32).toString('base64url'),
  APP_URL: 'https://hrvault.example.com',
  HOST: '127.0.0.1',
  PORT: String(port),
  HRVAULT_ROLE: 'all',
  STORAGE_DIR: join(work, 'storage'),
  LOG_LEVEL: 'info',
  DB_CONNECTION: 'sqlite',
  SYNC_ENABLED: 'false',
  POLAR_API_BASE_URL: polar.url,
  POLAR_AUTH_URL: polar.authUrl,
  POLAR_TOKEN_URL: polar.tokenUrl,
  POLAR_CLIENT_ID: 'hrvault-examples',
  POLAR_CLIENT_SECRET: 'hrvault-examples-secret',
  OPS_TOKENS: JSON.stringify({
    [opsToken]: ['*'],
    [proxiedOpsToken]: ['*'],
    [opsLimitedToken]: ['stats:read'],
    [opsHealthOnlyToken]: ['health:read'],
  }),
  COOLIFY_URL: coolify.url,
  COOLIFY_TOKEN: coolify.token,
  COOLIFY_PROJECT_UUID: SIM_UUIDS.project,
  COOLIFY_OPS_ALLOW_PRIVATE: 'true',
})
for (const name of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'SQLITE_PATH', 'CONFIG_DIR', 'LOG_DIR']) delete process.env[name]

const migrate = spawnSync(process.execPath, ['--import=@poppinss/ts-exec', 'bin/console.ts', 'migration:run', '--force'], {
  cwd: fileURLToPath(APP_ROOT),
  env: process.env,
  stdio: ['ignore', 'ignore', 'inherit'],
})
if (migrate.status !== 0) throw new Error('The examples database could not be migrated')

const ignitor = new Ignitor(APP_ROOT, { importer: IMPORTER })
ignitor.tap((app) => {
  app.booting(async () => {
    await import('#start/env')
  })
})

try {
  await ignitor.httpServer().start()
  const { captureAll } = await import('#simulators/openapi_examples/run')
  const file = await captureAll({ baseUrl: `http://127.0.0.1:${port}`, polar, coolify, opsToken, opsLimitedToken, opsHealthOnlyToken })
  const target = fileURLToPath(new URL('app/openapi/examples.json', APP_ROOT))
  writeFileSync(target, `${JSON.stringify(file, null, 2)}\n`)
  process.stdout.write(`Wrote ${Object.keys(file.operations).length} operations' examples to app/openapi/examples.json\n`)
} catch (error) {
  process.exitCode = 1
  prettyPrintError(error)
} finally {
  await ignitor.terminate()
  await polar.close()
  await coolify.close()
  rmSync(work, { recursive: true, force: true })
  process.exit()
}

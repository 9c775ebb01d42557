import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'

/*
 * `npm run demo` keeps everything under one directory (default storage/demo/): its `.env` with
 * every setting the demo runs with, its database, and `demo.json` with the key it printed. Any
 * `node ace` command reads the same settings with `ENV_PATH=storage/demo` in front, so the
 * commands the demo prints reach its database and its simulator without other variables.
 */

/** The simulator's port unless `--simulator-port` says otherwise: fixed, so the settings stay true across starts. */
export const DEMO_SIMULATOR_PORT = 4010
export const DEMO_CLIENT = { id: 'hrvault-demo', secret: 'hrvault-demo-secret' }

/** The simulator of the demo: every data type for every user, a window longer than the back-fill. */
export function startDemoSimulator(options: { port: number; days: number }): Promise<PolarSimulator> {
  return startPolarSimulator({
    port: options.port,
    window: options.days + 30,
    defaults: { biosensing: true, sleepwise: true, missingRate: 0.02 },
  })
}

export interface DemoSettingsOptions {
  /** The demo directory (ENV_PATH), absolute. */
  dir: string
  port: number
  simulator: Pick<PolarSimulator, 'url' | 'authUrl' | 'tokenUrl'>
  /** Where data goes; default the demo directory itself. */
  storageDir?: string
  /** Database settings other than the demo's SQLite file (the tests' own database). */
  database?: Record<string, string>
  /** Encryption key; default the one already in the file, else a new one. */
  appKey?: string
}

/** Writes `<dir>/.env` (mode 600) and returns its settings. An existing APP_KEY is kept: stored tokens stay readable. */
export function writeDemoSettings(options: DemoSettingsOptions): Record<string, string> {
  mkdirSync(options.dir, { recursive: true })
  const file = join(options.dir, '.env')
  const existingKey = existsSync(file) ? /^APP_KEY=(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] : undefined
  const settings: Record<string, string> = {
    APP_KEY: options.appKey ?? existingKey ?? randomBytes(32).toString('base64url'),
    HOST: '127.0.0.1',
    PORT: String(options.port),
    APP_URL: `http://127.0.0.1:${options.port}`,
    HRVAULT_ROLE: 'all',
    STORAGE_DIR: options.storageDir ?? options.dir,
    ...(options.database ?? { DB_CONNECTION: 'sqlite' }),
    POLAR_API_BASE_URL: options.simulator.url,
    POLAR_AUTH_URL: options.simulator.authUrl,
    POLAR_TOKEN_URL: options.simulator.tokenUrl,
    POLAR_CLIENT_ID: DEMO_CLIENT.id,
    POLAR_CLIENT_SECRET: DEMO_CLIENT.secret,
    // Everything of the demo (the simulators, a Coolify simulator's ops target) listens on loopback over http.
    COOLIFY_OPS_ALLOW_PRIVATE: 'true',
  }
  const lines = Object.entries(settings).map(([key, value]) => `${key}=${value}`)
  writeFileSync(file, `# Written by npm run demo on every start; node ace reads it with ENV_PATH=<this directory>.\n${lines.join('\n')}\n`, {
    mode: 0o600,
  })
  return settings
}

export interface DemoState {
  user_id: string
  api_key: string
}

/** The user and key an earlier start printed, or null. */
export function readDemoState(dir: string): DemoState | null {
  const file = join(dir, 'demo.json')
  if (!existsSync(file)) return null
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoState>
    return typeof state.user_id === 'string' && typeof state.api_key === 'string' ? (state as DemoState) : null
  } catch {
    return null
  }
}

export function writeDemoState(dir: string, state: DemoState) {
  writeFileSync(join(dir, 'demo.json'), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
}

/** The CLI commands the demo prints, each prefixed with the ENV_PATH that points ace at the demo. */
export function demoCommands(envPath: string, userId: string): string[] {
  const prefix = `ENV_PATH=${envPath} node ace`
  return [
    `${prefix} sync:status`,
    `${prefix} sync --user ${userId} --days 7`,
    `${prefix} api-key create --name my-script --user ${userId}`,
  ]
}

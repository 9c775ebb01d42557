/*
|--------------------------------------------------------------------------
| Screenshots of the admin UI for the README
|--------------------------------------------------------------------------
|
| `npm run screenshots [-- --days 120 --out docs/screenshots]` starts the demo
| (HRVault + the Polar simulator, a demo user back-filled through the real
| OAuth flow and sync) in a throwaway storage directory, beside a Coolify
| simulator whose "hrvault" application points at the demo's operations API.
| It creates an admin, signs in with Debian's Chromium (CHROMIUM_PATH, default
| /usr/bin/chromium) and writes PNGs of the main pages in the light and dark
| themes at 1280 px (desktop) and 375 px (phone). Everything listens on loopback.
|
*/
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, type Page } from 'playwright'
import { start as startCoolify, SIM_UUIDS } from '#simulators/coolify/simulator'
import { freePort } from '#tests/helpers/free_port'

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '120' },
    out: { type: 'string', default: 'docs/screenshots' },
  },
})

const root = fileURLToPath(new URL('../', import.meta.url))
const outDir = join(root, values.out!)
const storageDir = join(root, 'tmp/screenshots-demo')
const EMAIL = 'admin@example.com'
const PASSWORD = `screenshots-${randomBytes(8).toString('hex')}`

/** One page to photograph: where it is, what shows it has rendered, and how tall a desktop shot is. */
interface Shot {
  name: string
  path: string
  ready: (page: Page) => Promise<unknown>
  desktopHeight?: number
  phoneHeight?: number
  /** A last touch before the picture (e.g. point at a chart). */
  pose?: (page: Page, width: number) => Promise<unknown>
}

const SHOTS: Shot[] = [
  {
    name: 'overview',
    path: '/admin/overview?days=30',
    ready: (page) => page.locator('figure[data-chart="hrv_rmssd"][data-x-ticks]').waitFor(),
    desktopHeight: 1180,
    phoneHeight: 1400,
    pose: async (page, width) => {
      if (width < 600) return
      const box = (await page.locator('figure[data-chart="hrv_rmssd"] [data-testid="chart-box"]').boundingBox())!
      await page.mouse.move(box.x + box.width * 0.62, box.y + box.height * 0.5)
      await page.getByTestId('day-readout').waitFor()
    },
  },
  { name: 'users', path: '/admin/users', ready: (page) => page.locator('main h1').waitFor() },
  { name: 'polar', path: '/admin/polar', ready: (page) => page.locator('main h1').waitFor() },
  { name: 'api-keys', path: '/admin/api-keys', ready: (page) => page.locator('main h1').waitFor() },
  {
    name: 'coolify',
    path: '/coolify',
    ready: (page) => page.getByTestId('coolify-status').getByText('connected').waitFor(),
  },
  {
    name: 'ops',
    path: `/coolify/apps/${SIM_UUIDS.app}/ops`,
    ready: (page) => page.getByTestId('ops-status').getByText('healthy', { exact: true }).waitFor(),
  },
]

/** Resolves once the child prints `marker`; rejects when it exits first or after `ms`. */
function waitForOutput(child: ChildProcess, marker: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`The demo did not get ready within ${ms / 1000} s:\n${seen}`)), ms)
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      if (seen.includes(marker)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The demo exited (${code}) before it was ready:\n${seen}`))
    })
  })
}

const port = await freePort()
const base = `http://127.0.0.1:${port}`
const opsToken = randomBytes(32).toString('hex')
const coolify = await startCoolify({ opsAppFqdn: base, opsToken, opsPrefix: '/ops' })

rmSync(storageDir, { recursive: true, force: true })
mkdirSync(outDir, { recursive: true })
const env = {
  ...process.env,
  STORAGE_DIR: storageDir,
  LOG_DIR: join(storageDir, 'logs'),
  DB_CONNECTION: 'sqlite',
  COOLIFY_URL: coolify.url,
  COOLIFY_TOKEN: coolify.token,
  COOLIFY_OPS_ALLOW_PRIVATE: 'true',
  OPS_TOKEN: opsToken,
  // The pages, not the background sync, are what is photographed.
  SYNC_ENABLED: 'false',
}

// The production bundle, built when older than inertia/ (as `npm start` does).
spawnSync(process.execPath, ['inertia/build/ensure_assets.mjs'], { cwd: root, stdio: 'inherit' })

const demo = spawn(process.execPath, ['--import=@poppinss/ts-exec', 'bin/demo.ts', '--port', String(port), '--days', values.days!], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
})
let exitCode = 0
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
try {
  process.stdout.write(`Starting the demo on ${base} (back-filling ${values.days} days)…\n`)
  await waitForOutput(demo, 'HRVault demo is ready.', 10 * 60_000)
  const admin = spawnSync(
    process.execPath,
    ['--import=@poppinss/ts-exec', 'bin/console.ts', 'admin', 'create', '--email', EMAIL, '--password', PASSWORD],
    { cwd: root, env, encoding: 'utf8' }
  )
  if (admin.status !== 0) throw new Error(`Could not create the admin: ${admin.stderr}${admin.stdout}`)

  for (const scheme of ['light', 'dark'] as const) {
    for (const [device, width, height] of [
      ['desktop', 1280, 900],
      ['phone', 375, 812],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height }, baseURL: base, colorScheme: scheme, deviceScaleFactor: 1 })
      const page = await context.newPage()
      page.setDefaultTimeout(30_000)
      await page.goto('/admin/login')
      await page.getByLabel('Email').fill(EMAIL)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL((url) => !url.pathname.startsWith('/admin/login'))
      for (const shot of SHOTS) {
        const tall = device === 'desktop' ? shot.desktopHeight : shot.phoneHeight
        await page.setViewportSize({ width, height: tall ?? height })
        await page.goto(shot.path)
        await shot.ready(page)
        await page.waitForLoadState('networkidle')
        await shot.pose?.(page, width)
        const file = join(outDir, `${shot.name}-${scheme}-${device}.png`)
        await page.screenshot({ path: file })
        process.stdout.write(`  ${values.out}/${shot.name}-${scheme}-${device}.png (${Math.round(statSync(file).size / 1024)} KB)\n`)
      }
      await context.close()
    }
  }
} catch (error) {
  exitCode = 1
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
} finally {
  await browser.close()
  demo.kill('SIGTERM')
  await new Promise((resolve) => (demo.exitCode !== null ? resolve(null) : demo.once('exit', resolve)))
  await coolify.close()
  rmSync(storageDir, { recursive: true, force: true })
}
process.exit(exitCode)

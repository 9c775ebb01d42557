/**
 * `npm start` (and `npm run start:web`): runs the compiled server, as AdonisJS apps run in
 * production; `node bin/start.mjs ace <command> [args]` (`npm run start:worker`,
 * `npm run start:scheduler`) runs an ace command of the same build. The `node ace build` output in build/ is made on the first start and again only when
 * a source file changed since (newest modification time and file count of the server's sources,
 * kept in build/.sources-stamp), so a fresh clone needs nothing but `npm install` then `npm start`.
 * Running compiled JavaScript spares the TypeScript loader (about 60 MB per process).
 *
 * The compiled app keeps the project's settings and data: `.env` is read from the project root
 * (ENV_PATH), and relative storage paths resolve against the project root, not build/. When the
 * build cannot be made, the server runs from source through the TypeScript loader as before.
 *
 * Plain JavaScript, run by the project's Node 24: nothing here needs the TypeScript loader.
 */
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseEnv } from 'node:util'

const root = fileURLToPath(new URL('../', import.meta.url))
const buildDir = join(root, 'build')
const stampFile = join(buildDir, '.sources-stamp')

/** What the server is built from (tests/ and bench/ are built too, but never change what it serves). */
const SOURCES = [
  'app',
  'bin',
  'commands',
  'config',
  'database',
  'inertia',
  'providers',
  'resources',
  'simulators',
  'start',
  'ace.js',
  'adonisrc.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'vite.config.ts',
]

/** Newest modification time and number of files under the sources. */
function sourcesStamp() {
  let newest = 0
  let files = 0
  const walk = (path) => {
    const stats = statSync(path)
    if (!stats.isDirectory()) {
      files++
      newest = Math.max(newest, stats.mtimeMs)
      return
    }
    for (const entry of readdirSync(path)) if (entry !== 'node_modules') walk(join(path, entry))
  }
  for (const source of SOURCES) if (existsSync(join(root, source))) walk(join(root, source))
  return `${Math.floor(newest)} ${files}`
}

const isCurrent = (stamp) => existsSync(join(buildDir, 'bin/server.js')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp

/**
 * Runs `fn` holding tmp/build.lock, so processes started together (two `npm start`, test servers)
 * build one after the other, the later ones finding the build current. A lock older than ten
 * minutes is left by a build that was killed and is taken over.
 */
function withBuildLock(fn) {
  const lock = join(root, 'tmp/build.lock')
  mkdirSync(join(root, 'tmp'), { recursive: true })
  const wait = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'))
      break
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      let age = 0
      try {
        age = Date.now() - statSync(lock).mtimeMs
      } catch {}
      if (age > 10 * 60_000) rmSync(lock, { force: true })
      else Atomics.wait(wait, 0, 0, 500)
    }
  }
  try {
    return fn()
  } finally {
    rmSync(lock, { force: true })
  }
}

/** Builds when build/ is missing or stale; false when no usable build could be made. */
function ensureBuild() {
  if (isCurrent(sourcesStamp())) return true
  return withBuildLock(() => {
    // Another process may have built while this one waited for the lock.
    const stamp = sourcesStamp()
    return isCurrent(stamp) || build(stamp)
  })
}

function build(stamp) {
  const entry = join(buildDir, 'bin/server.js')
  process.stdout.write('Building the server (node ace build), once per change of the sources…\n')
  // The build (tsc, vite) gets Node's own heap limits, not the server's.
  const env = { ...process.env, NODE_OPTIONS: '' }
  const result = spawnSync(process.execPath, ['ace.js', 'build', '--ignore-ts-errors'], { cwd: root, stdio: 'inherit', env })
  if (result.status !== 0 || !existsSync(entry)) {
    process.stderr.write('The build failed; starting from source through the TypeScript loader instead.\n')
    return false
  }
  writeFileSync(stampFile, stamp)
  return true
}

/** Settings from the project's env files (the loader's precedence: process env, then these in order). */
function envFileValues() {
  const nodeEnv = process.env.NODE_ENV
  const names = [...(nodeEnv ? [`.env.${nodeEnv}.local`] : []), '.env.local', ...(nodeEnv ? [`.env.${nodeEnv}`] : []), '.env']
  const values = {}
  for (const name of names) {
    const file = join(root, name)
    if (!existsSync(file)) continue
    for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) if (!(key in values)) values[key] = value
  }
  return values
}

/** Relative storage paths resolve against the project root, as they do when run from source. */
function pinPaths() {
  const fromFiles = envFileValues()
  const storage = process.env.STORAGE_DIR ?? fromFiles.STORAGE_DIR ?? 'storage'
  process.env.STORAGE_DIR = isAbsolute(storage) ? storage : resolve(root, storage)
  for (const key of ['LOG_DIR', 'CONFIG_DIR', 'SQLITE_PATH']) {
    const value = process.env[key] ?? fromFiles[key]
    if (value && !isAbsolute(value)) process.env[key] = resolve(root, value)
  }
}

/** `ace <command> [args]`: the command and its arguments; null for the server. */
const aceArgs = process.argv[2] === 'ace' ? process.argv.slice(3) : null

if (ensureBuild()) {
  // .env (and the APP_KEY generated into it on first start) and storage/ stay in the project root.
  process.env.ENV_PATH = root
  pinPaths()
  // As `cd build && node bin/server.js`: globs such as the queue's job locations resolve from here.
  process.chdir(buildDir)
  if (aceArgs) {
    // The kernel reads its command from process.argv, as when started as `node build/ace.js …`.
    process.argv = [process.argv[0], join(buildDir, 'ace.js'), ...aceArgs]
    await import(pathToFileURL(join(buildDir, 'ace.js')).href)
  } else {
    await import(pathToFileURL(join(buildDir, 'bin/server.js')).href)
  }
} else if (aceArgs) {
  process.argv = [process.argv[0], join(root, 'ace.js'), ...aceArgs]
  await import(pathToFileURL(join(root, 'ace.js')).href)
} else {
  // From source the admin UI is served from public/assets, built here when missing or stale.
  spawnSync(process.execPath, ['inertia/build/ensure_assets.mjs'], { cwd: root, stdio: 'inherit' })
  await import('@poppinss/ts-exec')
  await import(pathToFileURL(join(root, 'bin/server.ts')).href)
}

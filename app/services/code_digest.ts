import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import app from '@adonisjs/core/services/app'

let digest: string | undefined

/**
 * A digest of the application's code: every file under `app/` and `config/`, the generated table
 * schema (`database/schema.ts`, the columns and casts the models read) and the locked dependency
 * versions (`package-lock.json`). Stored renders (the sleep lines, the insights snapshot) carry the
 * digest of the code that rendered them, so a release that changes how an answer is rendered never
 * serves one rendered before it; they are rendered again on their next read. Read once per process
 * (a few MB, tens of milliseconds), on first use.
 *
 * Every process running the same code must agree, whether it runs the TypeScript sources (tests,
 * `node ace queue:work`) or the compiled build `npm start` makes in `build/` next to them: a build
 * run from there reads the sources it was built from. A build shipped without its sources (an
 * image holding only `build/`) reads its own files, as do the other processes started from it.
 */
export function codeDigest(): string {
  return (digest ??= codeDigestOf(sourceRoot()))
}

/** The folders whose every file is digested, and the single files, relative to the root. */
const DIGESTED_FOLDERS = ['app', 'config']
const DIGESTED_FILES = ['database/schema.ts', 'database/schema.js', 'package-lock.json']

/** The digest of the code under `root` (see codeDigest): files in name order, each with its path. */
export function codeDigestOf(root: string): string {
  const hash = createHash('sha1')
  const walk = (dir: string, relative: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path, `${relative}/${entry.name}`)
      else hash.update(`${relative}/${entry.name}\0`).update(readFileSync(path))
    }
  }
  for (const folder of DIGESTED_FOLDERS) if (existsSync(join(root, folder))) walk(join(root, folder), folder)
  for (const file of DIGESTED_FILES) {
    const path = join(root, file)
    if (existsSync(path)) hash.update(`${file}\0`).update(readFileSync(path))
  }
  return hash.digest('base64url').slice(0, 16)
}

/** The project root when this process runs the build in its `build/` folder, else the app root. */
function sourceRoot(): string {
  const appRoot = fileURLToPath(app.appRoot).replace(/\/$/, '')
  const parent = dirname(appRoot)
  const besideSources = basename(appRoot) === 'build' && existsSync(join(parent, 'adonisrc.ts')) && existsSync(join(parent, 'app'))
  return besideSources ? parent : appRoot
}

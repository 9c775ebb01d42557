/**
 * `npm start` pre-step: builds the admin UI into public/assets when the
 * manifest is missing or older than any UI source (inertia/, vite.config.ts),
 * so a fresh clone or an update serves current assets with no extra step.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const manifest = join(root, 'public/assets/.vite/manifest.json')

function newestMtime(path) {
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

const sources = ['inertia', 'vite.config.ts'].map((p) => join(root, p)).filter((p) => existsSync(p))
const sourceTime = Math.max(...sources.map(newestMtime))
const fresh = existsSync(manifest) && statSync(manifest).mtimeMs >= sourceTime

if (!fresh) {
  process.stdout.write('Building the admin UI (vite build)…\n')
  const vite = join(root, 'node_modules/vite/bin/vite.js')
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    process.stderr.write('The admin UI build failed; the API still works, the admin pages will not.\n')
    process.exitCode = 0
  }
}

import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'

let digest: string | undefined

/**
 * A digest of the application's code: every file under `app/` as this process runs it (the
 * sources, or the compiled build). Stored renders (the sleep lines, the insights snapshot) carry
 * the digest of the code that rendered them, so a release that changes how an answer is rendered
 * never serves one rendered before it; they are rendered again on their next read. Read once per
 * process (a few MB, tens of milliseconds), on first use.
 */
export function codeDigest(): string {
  if (digest) return digest
  const hash = createHash('sha1')
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else hash.update(`${entry.name}\0`).update(readFileSync(path))
    }
  }
  walk(app.makePath('app'))
  return (digest = hash.digest('base64url').slice(0, 16))
}

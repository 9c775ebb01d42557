/**
 * First-start preparation that must happen before the application boots:
 * creates `storage/` and writes a generated APP_KEY into `.env` when none is set.
 * Kept free of framework imports because it runs before the env is validated.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function prepareFirstStart(appRoot: URL) {
  const root = fileURLToPath(appRoot)
  mkdirSync(new URL('storage/', appRoot), { recursive: true })

  const envFile = new URL('.env', appRoot)
  const current = existsSync(envFile) ? readFileSync(envFile, 'utf8') : ''
  const hasKey = /^APP_KEY=.{16,}$/m.test(current) || (process.env.APP_KEY ?? '').length >= 16
  if (hasKey) return

  const key = randomBytes(32).toString('base64url')
  const withoutEmptyKey = current.replace(/^APP_KEY=.*$/m, '').trimEnd()
  const next = `${withoutEmptyKey}${withoutEmptyKey ? '\n' : ''}APP_KEY=${key}\n`
  writeFileSync(envFile, next, { mode: 0o600 })
  process.stdout.write(`Generated APP_KEY into ${root}.env\n`)
}

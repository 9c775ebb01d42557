/**
 * First-start preparation that must happen before the application boots:
 * creates `storage/` and writes a generated APP_KEY into `.env` when none is set.
 * Kept free of framework imports because it runs before the env is validated.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * `appRoot` is where the app runs from; `.env` and `storage/` belong to the project root, which is
 * ENV_PATH when the compiled build in build/ runs (bin/start.mjs sets it).
 */
export function prepareFirstStart(appRoot: URL) {
  if (process.env.ENV_PATH) appRoot = pathToFileURL(`${resolve(fileURLToPath(appRoot), process.env.ENV_PATH)}/`)
  const root = fileURLToPath(appRoot)
  // The framework would listen on 0.0.0.0 without HOST; HRVault's default is loopback
  // (DESIGN §2), which is also what keeps the key-less open mode local.
  if (!process.env.HOST && !/^HOST=./m.test(readEnvFile(appRoot))) process.env.HOST = '127.0.0.1'
  mkdirSync(new URL('storage/', appRoot), { recursive: true })

  const envFile = new URL('.env', appRoot)
  const current = readEnvFile(appRoot)
  const hasKey = /^APP_KEY=.{16,}$/m.test(current) || (process.env.APP_KEY ?? '').length >= 16
  if (hasKey) return

  const key = randomBytes(32).toString('base64url')
  const withoutEmptyKey = current.replace(/^APP_KEY=.*$/m, '').trimEnd()
  const next = `${withoutEmptyKey}${withoutEmptyKey ? '\n' : ''}APP_KEY=${key}\n`
  writeFileSync(envFile, next, { mode: 0o600 })
  process.stdout.write(`Generated APP_KEY into ${root}.env\n`)
}

function readEnvFile(appRoot: URL) {
  const envFile = new URL('.env', appRoot)
  return existsSync(envFile) ? readFileSync(envFile, 'utf8') : ''
}

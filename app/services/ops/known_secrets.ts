import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import app from '@adonisjs/core/services/app'
import encryption from '@adonisjs/core/services/encryption'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import AppSetting from '#models/app_setting'
import { configDir, logDir, sqlitePath, storageDir } from '#config/paths'
import { POLAR_CLIENT_SECRET_SETTING } from '#services/polar/polar_credentials_service'
import { SecretScrubber, secretsFromEnvironment } from '#services/ops/secret_scrubber'

/** Longest wait for the stored Polar secret; logs must stay readable while the database is down. */
const STORED_SECRET_TIMEOUT_MS = 1000

function realPath(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

/** The Polar client secret saved in the admin UI (decrypted), or null (none, unreadable, too slow). */
async function storedPolarSecret(): Promise<string | null> {
  const lookup = AppSetting.query()
    .where('key', POLAR_CLIENT_SECRET_SETTING)
    .first()
    .then((row) => (row?.value ? encryption.decrypt<string>(row.value) : null))
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), STORED_SECRET_TIMEOUT_MS)
  })
  try {
    return (await Promise.race([lookup, timeout])) ?? null
  } catch (error) {
    logger.debug({ err: error, area: 'ops' }, 'stored Polar secret unavailable for scrubbing')
    return null
  } finally {
    clearTimeout(timer)
    lookup.catch(() => {})
  }
}

/**
 * The scrubber for operator-facing text of this process: the current environment's secrets, the
 * Polar client secret stored in the admin UI, the application root (and its real path) as `.`, and
 * the first segments of the configured storage paths as filesystem roots. Built per use, so a
 * changed setting or environment value counts at once.
 */
export async function currentSecretScrubber(): Promise<SecretScrubber> {
  const secrets = secretsFromEnvironment((key) => env.get(key as any))
  const stored = await storedPolarSecret()
  if (stored) secrets.push(stored)

  const root = app.makePath()
  const roots = [root, realPath(root)]
  const firstSegments = [root, realPath(root), storageDir, logDir, configDir, sqlitePath, process.execPath, homedir()]
    .map((path) => (path ? /^\/([^/]+)\//.exec(path)?.[1] : undefined))
    .filter((segment): segment is string => segment !== undefined)
  return new SecretScrubber({ secrets, roots, extraFilesystemRoots: firstSegments })
}

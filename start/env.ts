/*
|--------------------------------------------------------------------------
| Environment variables
|--------------------------------------------------------------------------
|
| Every variable HRVault reads, validated at boot. `.env.example` documents
| each one. Nothing else in the code base reads process.env.
|
*/
import proxyAddr from 'proxy-addr'
import { Env } from '@adonisjs/core/env'

/** Shortest operations token accepted: long enough that guessing it is hopeless. */
const OPS_TOKEN_MIN_LENGTH = 32

/**
 * TRUST_PROXY: addresses and CIDR ranges of the reverse proxies whose X-Forwarded-* headers
 * are believed (`127.0.0.1,10.0.0.0/8`); empty or `false` believes none. `true` is refused:
 * any client could then pick its own address and step around every per-address limit.
 */
function trustedProxies(key: string, value?: string): string[] {
  const raw = (value ?? '').trim()
  if (raw === '' || raw.toLowerCase() === 'false') return []
  if (raw.toLowerCase() === 'true') {
    throw new Error(
      `${key}=true would trust X-Forwarded-For from any client; list the reverse proxies instead, e.g. ${key}=127.0.0.1,10.0.0.0/8`
    )
  }
  const list = raw.split(',').map((entry) => entry.trim()).filter(Boolean)
  try {
    proxyAddr.compile(list)
  } catch (error) {
    throw new Error(`${key}: ${(error as Error).message}; expected addresses or CIDR ranges, e.g. 127.0.0.1,10.0.0.0/8`)
  }
  return list
}

const tooShort = (key: string, count: number) =>
  new Error(
    `${key}: ${count === 1 ? 'a token is' : `${count} tokens are`} shorter than ${OPS_TOKEN_MIN_LENGTH} characters; generate one with \`openssl rand -hex 32\``
  )

/** OPS_TOKEN: one token with every scope, at least OPS_TOKEN_MIN_LENGTH characters. */
function opsToken(key: string, value?: string): string | undefined {
  const token = (value ?? '').trim()
  if (token !== '' && token.length < OPS_TOKEN_MIN_LENGTH) throw tooShort(key, 1)
  return value || undefined
}

/**
 * OPS_TOKENS: JSON object token → scopes, every token at least OPS_TOKEN_MIN_LENGTH characters.
 * Other malformations are the ops middleware's to report (it then loads no token from it).
 */
function opsTokens(key: string, value?: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(value ?? '')
  } catch {
    return value || undefined
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const short = Object.keys(parsed).filter((token) => token.trim().length < OPS_TOKEN_MIN_LENGTH)
    if (short.length > 0) throw tooShort(key, short.length)
  }
  return value || undefined
}

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum.optional(['development', 'production', 'test'] as const),
  HOST: Env.schema.string.optional({ format: 'host' }),
  PORT: Env.schema.number.optional(),
  APP_KEY: Env.schema.secret(),
  APP_URL: Env.schema.string.optional(),
  APP_TIMEZONE: Env.schema.string.optional(),
  /** `all` runs web + worker + scheduler in one process; `web` serves HTTP only. */
  HRVAULT_ROLE: Env.schema.enum.optional(['all', 'web'] as const),
  TRUST_PROXY: trustedProxies,

  LOG_LEVEL: Env.schema.enum.optional(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  LOG_DIR: Env.schema.string.optional(),
  STORAGE_DIR: Env.schema.string.optional(),
  CONFIG_DIR: Env.schema.string.optional(),

  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'pg'] as const),
  SQLITE_PATH: Env.schema.string.optional(),
  DATABASE_URL: Env.schema.string.optional(),
  REDIS_URL: Env.schema.string.optional(),
  REDIS_PREFIX: Env.schema.string.optional(),

  SESSION_DRIVER: Env.schema.enum.optional(['cookie', 'memory', 'redis'] as const),

  SYNC_ENABLED: Env.schema.boolean.optional(),
  SYNC_INTERVAL_MINUTES: Env.schema.number.optional(),
  SYNC_DAYS: Env.schema.number.optional(),
  /** Jobs one queue worker runs at once. */
  QUEUE_CONCURRENCY: Env.schema.number.optional(),
  POLAR_CLIENT_ID: Env.schema.string.optional(),
  POLAR_CLIENT_SECRET: Env.schema.string.optional(),
  POLAR_API_BASE_URL: Env.schema.string.optional(),
  POLAR_AUTH_URL: Env.schema.string.optional(),
  POLAR_TOKEN_URL: Env.schema.string.optional(),
  /** Seconds between two manual syncs (API trigger, admin Sync now) of one user; 0 turns the cooldown off. */
  SYNC_TRIGGER_COOLDOWN_SECONDS: Env.schema.number.optional(),
  /** Share (%) of each Polar rate-limit window manual syncs may use; the rest is kept for background sync. */
  POLAR_MANUAL_BUDGET_PERCENT: Env.schema.number.optional(),
  /** Seconds within which a repeated webhook event (same user, event and item) is fetched once. */
  POLAR_WEBHOOK_DEDUP_SECONDS: Env.schema.number.optional(),
  /** Minutes between reconciliation polls per user while the Polar webhook is registered (default a day). */
  POLAR_RECONCILE_INTERVAL_MINUTES: Env.schema.number.optional(),
  /** Keep every wire item Polar serves in the raw-payload archive (default true). */
  RAW_ARCHIVE_ENABLED: Env.schema.boolean.optional(),

  RATE_LIMIT_REQUESTS: Env.schema.number.optional(),
  RATE_LIMIT_WINDOW: Env.schema.string.optional(),
  RESPONSE_CACHE_MB: Env.schema.number.optional(),
  /** Browser origins allowed to call /api/v1 (comma list, e.g. `https://app.example.com`); none by default. */
  CORS_ORIGINS: Env.schema.string.optional(),

  OPS_PREFIX: Env.schema.string.optional(),
  OPS_TOKENS: opsTokens,
  OPS_TOKEN: opsToken,
  OPS_CONSOLE_COMMANDS: Env.schema.string.optional(),
  OPS_CONSOLE_TIMEOUT_SECONDS: Env.schema.number.optional(),

  DASHBOARD_PREFIX: Env.schema.string.optional(),
  COOLIFY_URL: Env.schema.string.optional(),
  COOLIFY_TOKEN: Env.schema.string.optional(),
  COOLIFY_PROJECT_UUID: Env.schema.string.optional(),
  /** Lets the ops proxy use plain http and loopback/private/link-local targets (development, tests, demo). */
  COOLIFY_OPS_ALLOW_PRIVATE: Env.schema.boolean.optional(),
})

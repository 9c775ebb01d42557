/*
|--------------------------------------------------------------------------
| Environment variables
|--------------------------------------------------------------------------
|
| Every variable HRVault reads, validated at boot. `.env.example` documents
| each one. Nothing else in the code base reads process.env.
|
*/
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum.optional(['development', 'production', 'test'] as const),
  HOST: Env.schema.string.optional({ format: 'host' }),
  PORT: Env.schema.number.optional(),
  APP_KEY: Env.schema.secret(),
  APP_URL: Env.schema.string.optional(),
  APP_TIMEZONE: Env.schema.string.optional(),
  /** `all` runs web + worker + scheduler in one process; `web` serves HTTP only. */
  HRVAULT_ROLE: Env.schema.enum.optional(['all', 'web'] as const),
  TRUST_PROXY: Env.schema.boolean.optional(),

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

  RATE_LIMIT_REQUESTS: Env.schema.number.optional(),
  RATE_LIMIT_WINDOW: Env.schema.string.optional(),
  RESPONSE_CACHE_MB: Env.schema.number.optional(),

  OPS_PREFIX: Env.schema.string.optional(),
  OPS_TOKENS: Env.schema.string.optional(),
  OPS_TOKEN: Env.schema.string.optional(),
  OPS_CONSOLE_COMMANDS: Env.schema.string.optional(),
  OPS_CONSOLE_TIMEOUT_SECONDS: Env.schema.number.optional(),

  DASHBOARD_PREFIX: Env.schema.string.optional(),
  COOLIFY_URL: Env.schema.string.optional(),
  COOLIFY_TOKEN: Env.schema.string.optional(),
  COOLIFY_PROJECT_UUID: Env.schema.string.optional(),
})

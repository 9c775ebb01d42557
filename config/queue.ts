import env from '#start/env'
import { defineConfig, drivers } from '@adonisjs/queue'
import { redisEnabled } from '#config/redis'

/**
 * Background jobs (per-user syncs). The database adapter is the default;
 * Redis is used when REDIS_URL is set. Only the configured adapter is
 * listed because every listed adapter is resolved at boot.
 */
export default defineConfig({
  default: redisEnabled ? 'redis' : 'database',
  adapters: redisEnabled
    ? { redis: drivers.redis({ connectionName: 'main' }), sync: drivers.sync() }
    : { database: drivers.database({}), sync: drivers.sync() },
  worker: {
    // Syncs wait on Polar most of the time, so a worker runs several at once.
    concurrency: env.get('QUEUE_CONCURRENCY', 4),
    idleDelay: '1s',
  },
  locations: ['./app/jobs/**/*.{ts,js}'],
})

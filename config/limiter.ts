import { defineConfig, stores } from '@adonisjs/limiter'
import { redisEnabled } from '#config/redis'
import { connectionFollowingDatabaseStore } from '#services/limiter/connection_following_store'

/**
 * Rate-limit counters live in the database (self-hosted) or in Redis
 * (REDIS_URL set), so every process counts against the same budget.
 */
const limiterConfig = defineConfig({
  default: redisEnabled ? 'redis' : 'database',
  stores: {
    database: connectionFollowingDatabaseStore({ tableName: 'rate_limits' }),
    redis: stores.redis({ connectionName: 'main' }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}

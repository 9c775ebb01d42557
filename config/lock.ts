import { defineConfig, stores } from '@adonisjs/lock'
import { redisEnabled } from '#config/redis'

/** Per-user sync locks, shared across processes through the database or Redis. */
const lockConfig = defineConfig({
  default: redisEnabled ? 'redis' : 'database',
  stores: {
    database: stores.database({ tableName: 'locks' }),
    redis: stores.redis({ connectionName: 'main' }),
    memory: stores.memory(),
  },
})

export default lockConfig

declare module '@adonisjs/lock/types' {
  export interface LockStoresList extends InferLockStores<typeof lockConfig> {}
}

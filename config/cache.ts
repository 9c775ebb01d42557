import env from '#start/env'
import { defineConfig, store, drivers } from '@adonisjs/cache'
import { redisEnabled } from '#config/redis'

/** In-process L1 with a shared L2: the database by default, Redis when REDIS_URL is set. */
const cacheConfig = defineConfig({
  default: 'default',
  stores: {
    memoryOnly: store().useL1Layer(drivers.memory()),
    default: redisEnabled
      ? store()
          .useL1Layer(drivers.memory())
          .useL2Layer(drivers.redis({ connectionName: 'main' }))
          // Keeps every process's in-memory layer in step when a key changes elsewhere.
          .useBus(drivers.redisBus({ connectionName: 'main' }))
      : store()
          .useL1Layer(drivers.memory())
          .useL2Layer(drivers.database({ connectionName: env.get('DB_CONNECTION', 'sqlite'), autoCreateTable: false, tableName: 'cache' })),
  },
})

export default cacheConfig

declare module '@adonisjs/cache/types' {
  interface CacheStores extends InferStores<typeof cacheConfig> {}
}

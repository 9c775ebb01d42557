import env from '#start/env'
import { defineConfig } from '@adonisjs/redis'
import type { InferConnections } from '@adonisjs/redis/types'

/*
|--------------------------------------------------------------------------
| Redis
|--------------------------------------------------------------------------
|
| Only used when REDIS_URL is set (the scale-out profile). The connection is
| lazy, so the self-hosted profile never opens a socket.
|
*/
export const redisEnabled = Boolean(env.get('REDIS_URL'))

const redisConfig = defineConfig({
  connection: 'main',
  connections: {
    main: {
      ...parseRedisUrl(env.get('REDIS_URL', 'redis://127.0.0.1:6379')),
      keyPrefix: env.get('REDIS_PREFIX', ''),
      lazyConnect: true,
      maxRetriesPerRequest: 3,
      retryStrategy(times: number) {
        return times > 10 ? null : times * 100
      },
    },
  },
})

function parseRedisUrl(value: string) {
  const url = new URL(value)
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    password: url.password ? decodeURIComponent(url.password) : undefined,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    tls: url.protocol === 'rediss:' ? {} : undefined,
  }
}

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}

import { redisEnabled } from '#config/redis'

/**
 * Generation counters of the Coolify GET cache, one per token + Coolify URL namespace. A
 * cached answer is only used while its namespace's generation is unchanged, and every
 * mutation bumps it. With REDIS_URL (several web processes) the counter lives in Redis, so a
 * mutation in one process invalidates the cached reads of all of them; otherwise it is a
 * process-local counter (the self-hosted profile runs one process).
 */
export interface CacheGenerations {
  current(namespace: string): Promise<string>
  bump(namespace: string): Promise<void>
}

export class MemoryCacheGenerations implements CacheGenerations {
  #counters = new Map<string, number>()

  async current(namespace: string) {
    return String(this.#counters.get(namespace) ?? 0)
  }

  async bump(namespace: string) {
    this.#counters.set(namespace, (this.#counters.get(namespace) ?? 0) + 1)
  }
}

export class RedisCacheGenerations implements CacheGenerations {
  protected key = (namespace: string) => `coolify:cache-generation:${namespace}`

  protected async redis() {
    return (await import('@adonisjs/redis/services/main')).default
  }

  async current(namespace: string) {
    return (await (await this.redis()).get(this.key(namespace))) ?? '0'
  }

  async bump(namespace: string) {
    await (await this.redis()).incr(this.key(namespace))
  }
}

const memory = new MemoryCacheGenerations()
const shared = new RedisCacheGenerations()

/** The counters for this deployment profile. */
export function cacheGenerations(): CacheGenerations {
  return redisEnabled ? shared : memory
}

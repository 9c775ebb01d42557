import cache from '@adonisjs/cache/services/main'
import logger from '@adonisjs/core/services/logger'

/** Cache key of the app-wide "Polar refuses calls until" marker. */
const BLOCK_KEY = 'polar:rate_limited_until'

/**
 * Polar's rate limits belong to the AccessLink client, i.e. to the whole HRVault installation, not
 * to one user. When one sync hits a 429 (or an exhausted `RateLimit-*` window), the reset time is
 * shared through the cache (database or Redis L2), so every other sync in every process stops
 * before spending calls Polar would refuse.
 */
export class ProviderRateLimitService {
  /** Seconds until Polar accepts calls again, or null when no limit is known to be active. */
  async blockedFor(): Promise<number | null> {
    try {
      const until = await cache.get<number>({ key: BLOCK_KEY })
      if (typeof until !== 'number') return null
      const seconds = Math.ceil((until - Date.now()) / 1000)
      return seconds > 0 ? seconds : null
    } catch (error) {
      logger.warn({ err: error }, 'could not read the shared Polar rate-limit marker')
      return null
    }
  }

  /** Records that Polar refuses calls for `seconds` (keeps the later of two reset times). */
  async block(seconds: number): Promise<void> {
    try {
      const current = (await this.blockedFor()) ?? 0
      const wait = Math.max(current, Math.ceil(seconds))
      await cache.set({ key: BLOCK_KEY, value: Date.now() + wait * 1000, ttl: `${wait}s` })
    } catch (error) {
      logger.warn({ err: error }, 'could not share the Polar rate-limit marker')
    }
  }

  /** Forgets the marker (operations and tests). */
  async clear(): Promise<void> {
    await cache.delete({ key: BLOCK_KEY })
  }
}

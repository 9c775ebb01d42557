import app from '@adonisjs/core/services/app'
import cache from '@adonisjs/cache/services/main'
import logger from '@adonisjs/core/services/logger'
import type { RateLimitState } from '#services/polar/transport'
import { PolarBudgetService } from '#services/sync/polar_budget_service'

/** Cache key of the app-wide "Polar refuses calls until" marker. */
const BLOCK_KEY = 'polar:rate_limited_until'

/** Cache key of Polar's latest reported request usage (shared by every process). */
const USAGE_KEY = 'polar:rate_limit_usage'

/** Length in seconds of Polar's windows (reference §11: 15 minutes, 24 hours), used when a reset is not sent. */
const WINDOW_SECONDS = [900, 86_400]

/**
 * Polar's latest `RateLimit-*` headers as shared between processes: per window (15 min first,
 * 24 h second) the requests used, the limit, and the epoch milliseconds at which the window resets.
 */
export interface ProviderUsage {
  usage: number[]
  limit: number[]
  resetsAt: number[]
  /** `Date.now()` of the process that read the headers. */
  observedAt: number
}

/** Windows of a usage record that are at or above `percent` of their limit (and not yet reset). */
export interface ReservedWindow {
  /** 0 = 15-minute window, 1 = 24-hour window. */
  index: number
  usage: number
  limit: number
  /** Seconds until the window resets. */
  resetsIn: number
}

/**
 * Polar's rate limits belong to the AccessLink client, i.e. to the whole HRVault installation, not
 * to one user. When one sync hits a 429 (or an exhausted `RateLimit-*` window), the reset time is
 * shared through the cache (database or Redis L2), so every other sync in every process stops
 * before spending calls Polar would refuse. The latest reported usage is shared the same way, so a
 * manual sync can be refused while the share reserved for background sync is being used.
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

  /**
   * Shares the `RateLimit-*` headers a sync saw last (null: none seen, nothing recorded). An older
   * observation never replaces a newer one; the record expires when its last window resets.
   */
  async recordUsage(state: RateLimitState | null): Promise<void> {
    if (!state || state.limit.length === 0) return
    const record: ProviderUsage = {
      usage: state.usage,
      limit: state.limit,
      resetsAt: state.limit.map((_, i) => state.observedAt + (state.reset[i] ?? WINDOW_SECONDS[i] ?? 900) * 1000),
      observedAt: state.observedAt,
    }
    const ttlSeconds = Math.ceil((Math.max(...record.resetsAt) - Date.now()) / 1000)
    if (ttlSeconds <= 0) return
    try {
      const current = await this.latestUsage()
      if (current && current.observedAt > record.observedAt) return
      await cache.set({ key: USAGE_KEY, value: record, ttl: `${ttlSeconds}s` })
    } catch (error) {
      logger.warn({ err: error }, 'could not share the Polar rate-limit usage')
    }
  }

  /** Polar's latest reported usage, or null when none is known (or the store does not answer). */
  async latestUsage(): Promise<ProviderUsage | null> {
    try {
      const record = await cache.get<ProviderUsage>({ key: USAGE_KEY })
      return record && Array.isArray(record.usage) && Array.isArray(record.limit) ? record : null
    } catch (error) {
      logger.warn({ err: error }, 'could not read the shared Polar rate-limit usage')
      return null
    }
  }

  /**
   * Windows whose latest reported usage is at or above `percent` of the limit and below the limit
   * itself, until they reset. A spent window (usage ≥ limit) is not listed: the "blocked until"
   * marker covers it, and the engine's rule for it applies (background syncs wait, a manual sync
   * probes with one call).
   */
  async reservedWindows(percent: number): Promise<ReservedWindow[]> {
    const record = await this.latestUsage()
    if (!record) return []
    const now = Date.now()
    const reserved: ReservedWindow[] = []
    record.limit.forEach((limit, index) => {
      const usage = record.usage[index]
      const resetsIn = Math.ceil(((record.resetsAt[index] ?? 0) - now) / 1000)
      if (usage === undefined || !(limit > 0) || resetsIn <= 0) return
      if (usage >= (limit * percent) / 100 && usage < limit) reserved.push({ index, usage, limit, resetsIn })
    })
    return reserved
  }

  /** Forgets the marker, the recorded usage and the budget's current counters (operations and tests). */
  async clear(): Promise<void> {
    await cache.deleteMany({ keys: [BLOCK_KEY, USAGE_KEY] })
    await (await app.container.make(PolarBudgetService)).clear()
  }
}

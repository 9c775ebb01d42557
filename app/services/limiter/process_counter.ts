import logger from '@adonisjs/core/services/logger'
import type { LimiterResponse } from '@adonisjs/limiter'

/** The window of one key: requests counted in it and when it ends. */
interface Window {
  consumed: number
  /** Epoch ms at which the window resets. */
  resetAt: number
  /** `consumed` last written to the shared store. */
  stored: number
  /** The policy the window was counted for (picks the store's limiter when writing back). */
  limit: number
  windowSeconds: number
}

/** The store the counts are loaded from and written back to (the limiter's database store). */
export interface CounterStore {
  get(key: string): Promise<LimiterResponse | null>
  set(key: string, consumed: number, seconds: number): Promise<unknown>
}

/** What one counted request leaves of its window. */
export interface Count {
  limit: number
  consumed: number
  /** Seconds until the window resets (rounded up, as the limiter reports it). */
  availableIn: number
}

/** How often changed counts are written back to the store. */
const FLUSH_INTERVAL_MS = 1_000

/**
 * Fixed-window request counters held in this process, for the profile with one web process (SQLite
 * without Redis): every count is exact and costs no database write on the request path. A key's
 * window is loaded once from the shared store (so a restart continues the window it left) and
 * changed counts are written back every second and on shutdown, in the store's own format.
 * Windows start at the first request and last `windowSeconds`, as the store's do.
 */
export class ProcessCounter {
  #windows = new Map<string, Window>()
  #loading = new Map<string, Promise<void>>()
  #timer: NodeJS.Timeout | null = null

  constructor(protected store: (windowSeconds: number, limit: number) => CounterStore) {}

  /** Counts one request of `key`; synchronous once the key's window is known. */
  hit(key: string, limit: number, windowSeconds: number): Count | Promise<Count> {
    const now = Date.now()
    const window = this.#windows.get(key)
    if (window && window.resetAt > now) return this.#count(window, limit, now)
    if (window) this.#windows.delete(key)
    return this.#load(key, limit, windowSeconds).then(() => {
      const at = Date.now()
      let loaded = this.#windows.get(key)
      if (!loaded || loaded.resetAt <= at) {
        loaded = { consumed: 0, resetAt: at + windowSeconds * 1000, stored: 0, limit, windowSeconds }
        this.#windows.set(key, loaded)
      }
      return this.#count(loaded, limit, at)
    })
  }

  #count(window: Window, limit: number, now: number): Count {
    window.consumed++
    this.#schedule()
    return { limit, consumed: window.consumed, availableIn: Math.ceil((window.resetAt - now) / 1000) }
  }

  /** Reads the key's current window from the store once (concurrent first requests share it). */
  #load(key: string, limit: number, windowSeconds: number): Promise<void> {
    let loading = this.#loading.get(key)
    if (!loading) {
      loading = this.store(windowSeconds, limit)
        .get(key)
        .then((stored) => {
          if (stored && stored.consumed > 0 && stored.availableIn > 0 && !this.#windows.has(key)) {
            const resetAt = Date.now() + stored.availableIn * 1000
            this.#windows.set(key, { consumed: stored.consumed, resetAt, stored: stored.consumed, limit, windowSeconds })
          }
        })
        .catch((error) => logger.warn({ err: error }, 'rate-limit store unavailable; window starts in memory'))
        .finally(() => this.#loading.delete(key))
      this.#loading.set(key, loading)
    }
    return loading
  }

  #schedule() {
    if (this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = null
      void this.flush()
    }, FLUSH_INTERVAL_MS)
    this.#timer.unref()
  }

  /** Writes every changed count to the store and forgets ended windows. */
  async flush() {
    const now = Date.now()
    const writes: Promise<unknown>[] = []
    for (const [key, window] of this.#windows) {
      if (window.resetAt <= now) {
        this.#windows.delete(key)
        continue
      }
      if (window.consumed === window.stored) continue
      const seconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000))
      const consumed = window.consumed
      // The policy's own limiter writes it: `set` stores the count and expiry it is given.
      writes.push(
        this.store(window.windowSeconds, window.limit)
          .set(key, consumed, seconds)
          .then(() => (window.stored = Math.max(window.stored, consumed)))
          .catch((error) => logger.warn({ err: error }, 'rate-limit counts not written back'))
      )
    }
    await Promise.all(writes)
  }

  /** Forgets every window in this process (tests, after emptying the store). */
  clear() {
    this.#windows.clear()
    this.#loading.clear()
  }
}

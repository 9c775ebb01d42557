import type { IncomingMessage } from 'node:http'
import app from '@adonisjs/core/services/app'
import limiter from '@adonisjs/limiter/services/main'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import string from '@adonisjs/core/helpers/string'
import env from '#start/env'
import { redisEnabled } from '#config/redis'
import RateLimitedException from '#exceptions/rate_limited_exception'
import { ProcessCounter, type Count } from '#services/limiter/process_counter'
import { RedisCounter } from '#services/limiter/redis_counter'
import { perTurn } from '#services/coalesced_calls'

export interface RateLimitPolicy {
  /** Namespace of the counter, e.g. `api` or `ops`. */
  bucket: string
  requests: number
  /** Window as seconds or a duration string ("15 minutes"). */
  window: number | string
  /**
   * The per-request budget of the data APIs, where a store write per request was most of the
   * cost: counted in this process when the profile runs one web process (PROCESS_COUNTING), in
   * Redis through RedisCounter (one round trip for concurrent requests) in scale-out.
   */
  inProcess?: boolean
}

/**
 * The per-key budget of the analytics API and the MCP endpoint (RATE_LIMIT_REQUESTS per
 * RATE_LIMIT_WINDOW), counted by ApiRateLimitMiddleware and by ReadFastPath's answers alike.
 * Read once per event-loop turn, not once per process: tests change the variables at run time.
 */
export const apiRequestPolicy: () => RateLimitPolicy = perTurn(() => ({
  bucket: 'api',
  requests: env.get('RATE_LIMIT_REQUESTS', 1000),
  window: env.get('RATE_LIMIT_WINDOW', '15 minutes'),
  inProcess: true,
}))

/** The budget an API key's requests count against, whichever surface they use. */
export const apiKeySubject = (keyId: number) => `key:${keyId}`

/**
 * SQLite without Redis is the self-hosted profile: one web process (`npm start`) that owns the
 * database file. Its per-request budgets are counted exactly in memory (ProcessCounter, written
 * back to the database every second). With Redis (the scale-out profile, any number of web
 * processes) every count goes to the shared store at once.
 */
export const PROCESS_COUNTING = !redisEnabled && env.get('DB_CONNECTION', 'sqlite') === 'sqlite'

const COUNTED_AHEAD = Symbol('hrvault.countedAhead')
type CountedAhead = { subject: string; count: Promise<Record<string, string>> }
type WithCountAhead = IncomingMessage & { [COUNTED_AHEAD]?: CountedAhead }

/**
 * A request's API budget counted ahead of the framework's pipeline (ReadFastPath, scale-out: the
 * count's round trip overlaps the data-version read) and handed to ApiRateLimitMiddleware when the
 * pipeline answers after all, so the request is counted exactly once. Kept on the request itself
 * under a symbol, so the entry goes with it: a WeakMap keyed by ten thousand short-lived requests a
 * second made every young-generation collection walk its ephemerons (PostgreSQL + Redis cached
 * answers 5–7 % faster without it, profile note "Nineteenth look").
 */
export const countedAhead = {
  get: (request: IncomingMessage): CountedAhead | undefined => (request as WithCountAhead)[COUNTED_AHEAD],
  set(request: IncomingMessage, entry: CountedAhead) {
    ;(request as WithCountAhead)[COUNTED_AHEAD] = entry
  },
}

/** In-process windows of `inProcess` policies, loaded from and written back to the database store. */
export const processCounter = new ProcessCounter((seconds, limit) => limiterFor({ requests: Math.max(1, limit), window: seconds }))
if (PROCESS_COUNTING) app.terminating(() => processCounter.flush())

/** `inProcess` policies with Redis: the limiter's keys and script, concurrent requests in one round trip. */
export const redisCounter = new RedisCounter()

const windowSeconds = new Map<string | number, number>()
/** A policy window in seconds (parsed once per spelling). */
function secondsOf(window: number | string): number {
  let seconds = windowSeconds.get(window)
  if (seconds === undefined) windowSeconds.set(window, (seconds = typeof window === 'number' ? window : string.seconds.parse(window)))
  return seconds
}

/**
 * The limiter of a policy. A spent key is also blocked in this process's memory, with no
 * duration of its own, so it stays blocked exactly until the window resets: no store round
 * trip per refused request, and `availableIn` is always the real reset.
 */
export function limiterFor(policy: Pick<RateLimitPolicy, 'requests' | 'window'>) {
  return limiter.use({
    requests: policy.requests,
    duration: policy.window,
    inMemoryBlockOnConsumed: policy.requests + 1,
  })
}

/**
 * Counts one request against a shared store (database or Redis) and returns
 * the RateLimit-* headers; throws RateLimitedException (429 + Retry-After)
 * when the window's budget is spent.
 */
export class RateLimitService {
  async hit(policy: RateLimitPolicy, key: string): Promise<Record<string, string>> {
    const counterKey = `${policy.bucket}:${key}`
    if (policy.inProcess) {
      // Inside a global transaction (tests) the store's rows roll back with it; count there instead.
      if (PROCESS_COUNTING && db.connectionGlobalTransactions.size === 0) {
        const counted = processCounter.hit(counterKey, policy.requests, secondsOf(policy.window))
        return this.answer(counted instanceof Promise ? await counted : counted)
      }
      if (redisEnabled) return this.answer(await redisCounter.hit(counterKey, policy.requests, secondsOf(policy.window)))
    }
    try {
      const response = await limiterFor(policy).consume(counterKey)
      return this.headers(response.limit, response.remaining, response.availableIn)
    } catch (error: any) {
      if (error?.code !== 'E_TOO_MANY_REQUESTS' || !error.response) throw error
      const { limit, availableIn } = error.response
      throw new RateLimitedException({
        ...this.headers(limit, 0, availableIn),
        'Retry-After': String(Math.max(1, availableIn)),
      })
    }
  }

  /**
   * Like `hit`, but a failing counter store (the database being down) is logged and the
   * request goes on uncounted, so an outage does not turn into 500s. A 429 still propagates.
   */
  async hitIfAvailable(policy: RateLimitPolicy, key: string): Promise<Record<string, string>> {
    try {
      return await this.hit(policy, key)
    } catch (error) {
      if (error instanceof RateLimitedException) throw error
      logger.warn({ err: error, bucket: policy.bucket }, 'rate-limit store unavailable; request not counted')
      return {}
    }
  }

  /** The headers of a counted request, or the 429 once its window's budget is spent. */
  protected answer({ limit, consumed, availableIn }: Count): Record<string, string> {
    if (consumed > limit) {
      throw new RateLimitedException({
        ...this.headers(limit, 0, availableIn),
        'Retry-After': String(Math.max(1, availableIn)),
      })
    }
    return this.headers(limit, limit - consumed, availableIn)
  }

  protected headers(limit: number, remaining: number, resetInSeconds: number) {
    return {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, remaining)),
      'RateLimit-Reset': String(Math.max(0, resetInSeconds)),
    }
  }
}

import { inject } from '@adonisjs/core'
import cache from '@adonisjs/cache/services/main'
import logger from '@adonisjs/core/services/logger'
import limiter from '@adonisjs/limiter/services/main'
import db from '@adonisjs/lucid/services/db'
import { ClockService } from '#services/clock_service'
import { PolarBudgetExhaustedError } from '#services/polar/errors/polar_budget_exhausted_error'
import type { RateLimitState } from '#services/polar/transport'
import {
  CONTINUATION_KIND,
  POLAR_WINDOWS,
  WORK_SHARES,
  capOf,
  estimatedUsage,
  formulaLimits,
  mergeReading,
  windowKey,
  windowResetsAt,
  type BudgetRecord,
  type BudgetWindow,
  type PolarWindowName,
  type PolarWorkKind,
} from '#services/sync/polar_budget'

export type { PolarWorkKind } from '#services/sync/polar_budget'

/** Cache key of the shared window record (Polar's latest readings merged, see BudgetRecord). */
const RECORD_KEY = 'polar:budget'

/** The record outlives its windows: Polar's limit stays a better guess than the formula. */
const RECORD_TTL = '7d'

/** How long a counted number of users (for the formula limits) is reused in this process. */
const USER_COUNT_TTL_MS = 60_000

/** Counters never refuse by themselves (the service compares); they expire two windows after their first call. */
const counterFor = (index: number) => limiter.use({ requests: 1_000_000_000, duration: POLAR_WINDOWS[index].seconds * 2 })
const counterKey = (index: number, key: string) => `polar_budget:${POLAR_WINDOWS[index].name}:${key}`

/** Calls counted for one reservation: the counter key and its value after counting, per window. */
export interface BudgetReservation {
  keys: string[]
  counters: number[]
  calls: number
}

/** Polar's limits as the budget uses them: [short, long], from Polar's headers or the formula. */
export interface BudgetLimits {
  values: [number, number]
  source: 'polar' | 'formula'
}

/** One window in {@link PolarBudgetService.budget}. */
export interface PolarBudgetWindow {
  window: PolarWindowName
  lengthSeconds: number
  /** Calls in the current window: the shared counter plus what Polar counted beyond it. */
  used: number
  limit: number
  limitSource: 'polar' | 'formula'
  /** Polar's usage at the latest recorded reading of this window, null when none is known. */
  reported: number | null
  /** When the window resets, ISO and seconds from now. */
  resetsAt: string
  resetsInSeconds: number
  /** `polar`: from Polar's `RateLimit-Reset` in this window; `estimate`: none read since it began. */
  resetSource: 'polar' | 'estimate'
  /** Calls each class of work may reach in this window. */
  caps: Record<PolarWorkKind, number>
}

/** The budget as operations see it (sync:status, operations API, admin UI): plain data. */
export interface PolarBudget {
  windows: PolarBudgetWindow[]
  /** Users with a stored Polar token (the U of Polar's formula). */
  registeredUsers: number
  /** When Polar's headers were last recorded, null when never. */
  observedAt: string | null
}

let userCountCache: { value: number; at: number } | null = null

/**
 * HRVault's share of Polar's rate limits (reference §11): the AccessLink client has ONE budget for
 * all users, all processes. Every call is counted before it is sent in a shared counter per window
 * (the limiter store: database, or Redis in scale-out; one atomic increment per window), and the
 * `RateLimit-*` headers Polar answers with correct it (authoritative: limit, reset, and any calls
 * the counter missed). A call is admitted only while its class of work stays within its share of
 * both windows (WORK_SHARES); otherwise PolarBudgetExhaustedError says when to retry and nothing
 * is sent. Time comes from ClockService. A failing store is logged and never blocks a call.
 */
@inject()
export class PolarBudgetService {
  constructor(protected clock: ClockService) {}

  /**
   * Admits `kind` work expected to make `calls` calls, counting them up front (a sync reserves
   * its whole run, so a window that fills up stops syncs at their start, not half-way). Calls
   * beyond the reservation are counted one by one against the next class's share
   * (CONTINUATION_KIND); `release()` gives back what was not used. Throws
   * PolarBudgetExhaustedError when they do not fit.
   */
  async admit(kind: PolarWorkKind, calls: number): Promise<BudgetAllowance> {
    const reservation = calls > 0 ? await this.reserve(calls, kind) : null
    return new BudgetAllowance(this, kind, reservation)
  }

  /** An allowance that counts each call as it is made (calls outside syncs: events, connections). */
  allowance(kind: PolarWorkKind): BudgetAllowance {
    return new BudgetAllowance(this, kind, null)
  }

  /**
   * Counts `calls` calls of `kind` in both windows, or throws PolarBudgetExhaustedError (counting
   * nothing) when either window would go past the share of `shareOf` (the class itself unless a
   * run continues past its reservation). Returns null when the store failed (logged; the calls go
   * ahead uncounted).
   */
  async reserve(calls: number, kind: PolarWorkKind, shareOf: PolarWorkKind = kind): Promise<BudgetReservation | null> {
    try {
      const now = this.now()
      const record = await this.readRecord()
      const limits = await this.limits(record)
      const keys = POLAR_WINDOWS.map((_, i) => windowKey(record[i], i, now))
      const overflowing = (counters: number[]) =>
        keys.findIndex((key, i) => estimatedUsage(record[i], key, counters[i]) > capOf(limits.values[i], shareOf))
      const refuse = (index: number) =>
        new PolarBudgetExhaustedError(kind, POLAR_WINDOWS[index].name, windowResetsAt(record[index], index, now), now)

      // A run's reservation is first checked by reading: a refused run writes nothing, and its
      // attempt does not briefly inflate the counters that concurrent calls are checked against.
      if (calls > 1) {
        const current = await Promise.all(keys.map(async (key, i) => (await counterFor(i).get(counterKey(i, key)))?.consumed ?? 0))
        const early = overflowing(current.map((value) => value + calls))
        if (early !== -1) throw refuse(early)
      }
      // The increment is atomic: of several processes admitting at once, those past the cap undo theirs.
      const counters = await Promise.all(
        keys.map(async (key, i) => (await counterFor(i).increment(counterKey(i, key), calls)).consumed)
      )
      const refused = overflowing(counters)
      if (refused === -1) return { keys, counters, calls }
      await this.uncount(keys, calls)
      throw refuse(refused)
    } catch (error) {
      if (error instanceof PolarBudgetExhaustedError) throw error
      logger.warn({ err: error, kind }, 'Polar budget store unavailable; calls not counted')
      return null
    }
  }

  /** Gives back `calls` calls of a reservation that were not made. */
  async refund(reservation: BudgetReservation, calls: number): Promise<void> {
    if (calls <= 0) return
    try {
      await this.uncount(reservation.keys, calls)
    } catch (error) {
      logger.warn({ err: error }, 'could not give back unused Polar budget')
    }
  }

  /**
   * Merges the `RateLimit-*` headers of an answer into the shared record. `reservation` is the
   * one the call was counted in (null: not counted). Reads the counter and writes only when
   * something the admission uses may have changed (a new window, the limit, the drift, an earlier
   * reset), so a usual answer costs a cache read. Never throws.
   */
  async observe(state: RateLimitState, reservation: BudgetReservation | null): Promise<void> {
    try {
      const now = this.now()
      const record = await this.readRecord()
      const updates: Array<[number, BudgetWindow]> = []
      for (const [i, window] of POLAR_WINDOWS.entries()) {
        const usage = state.usage[i]
        const limit = state.limit[i]
        if (usage === undefined || limit === undefined || !(limit > 0)) continue
        const key = windowKey(record[i], i, now)
        const reading = { usage, limit, resetSeconds: state.reset[i] ?? window.seconds }
        // Polar counted at most the calls counted by now: the drift is Polar's usage minus the
        // counter's current value. The reservation's own value (never higher) filters out the
        // usual answer without a store read.
        const floor = reservation && reservation.keys[i] === key ? reservation.counters[i] : 0
        if (!mergeReading(record[i], reading, now, key, floor).changed) continue
        const counter = Math.max(floor, (await counterFor(i).get(counterKey(i, key)))?.consumed ?? 0)
        const merged = mergeReading(record[i], reading, now, key, counter)
        if (merged.changed) updates.push([i, merged.window])
      }
      if (updates.length === 0) return
      // Only the windows this answer changed replace what another call may have written meanwhile.
      const next = await this.readRecord()
      for (const [i, window] of updates) next[i] = window
      await cache.set({ key: RECORD_KEY, value: next, ttl: RECORD_TTL })
    } catch (error) {
      logger.warn({ err: error }, 'could not record Polar rate-limit headers in the budget')
    }
  }

  /** Polar's limits: from its latest headers, else the formula with U = users with a stored token. */
  async limits(record?: BudgetRecord): Promise<BudgetLimits> {
    const known = record ?? (await this.readRecord())
    const [short, long] = known
    if (short && long) return { values: [short.limit, long.limit], source: 'polar' }
    const formula = formulaLimits(await this.registeredUserCount(true))
    return { values: [short?.limit ?? formula[0], long?.limit ?? formula[1]], source: 'formula' }
  }

  /** Usage, limits, resets and per-class caps of both windows, for operations. */
  async budget(): Promise<PolarBudget> {
    const now = this.now()
    const record = await this.readRecord()
    const limits = await this.limits(record)
    const windows = await Promise.all(
      POLAR_WINDOWS.map(async (window, i): Promise<PolarBudgetWindow> => {
        const key = windowKey(record[i], i, now)
        const counter = (await counterFor(i).get(counterKey(i, key)))?.consumed ?? 0
        const resetsAt = windowResetsAt(record[i], i, now)
        const current = record[i] && record[i]!.key === key ? record[i] : null
        return {
          window: window.name,
          lengthSeconds: window.seconds,
          used: estimatedUsage(record[i], key, counter),
          limit: limits.values[i],
          limitSource: limits.source,
          reported: current?.usage ?? null,
          resetsAt: new Date(resetsAt).toISOString(),
          resetsInSeconds: Math.max(0, Math.ceil((resetsAt - now) / 1000)),
          resetSource: current ? 'polar' : 'estimate',
          caps: Object.fromEntries(
            Object.keys(WORK_SHARES).map((kind) => [kind, capOf(limits.values[i], kind as PolarWorkKind)])
          ) as Record<PolarWorkKind, number>,
        }
      })
    )
    const observed = Math.max(record[0]?.observedAt ?? 0, record[1]?.observedAt ?? 0)
    return {
      windows,
      registeredUsers: await this.registeredUserCount(false),
      observedAt: observed > 0 ? new Date(observed).toISOString() : null,
    }
  }

  /** Users with a stored Polar token (Polar's U); `cached` reuses a count up to a minute old. */
  async registeredUserCount(cached = false): Promise<number> {
    if (cached && userCountCache && Date.now() - userCountCache.at < USER_COUNT_TTL_MS) return userCountCache.value
    const [{ n }] = await db.from('users').whereNotNull('provider_token_encrypted').count('* as n')
    userCountCache = { value: Number(n), at: Date.now() }
    return userCountCache.value
  }

  /** Active users with a stored Polar token: the users every scheduler interval syncs. */
  async connectedUserCount(): Promise<number> {
    const [{ n }] = await db.from('users').where('is_active', true).whereNotNull('provider_token_encrypted').count('* as n')
    return Number(n)
  }

  /**
   * Forgets the shared record and the counters of the current windows (operations and tests;
   * ProviderRateLimitService.clear calls it).
   */
  async clear(): Promise<void> {
    const now = this.now()
    const record = await this.readRecord()
    const deletions = POLAR_WINDOWS.flatMap((_, i) => {
      const keys = new Set([windowKey(record[i], i, now), windowKey(null, i, now), record[i]?.key ?? windowKey(null, i, now)])
      return [...keys].map((key) => counterFor(i).delete(counterKey(i, key)))
    })
    await Promise.all(deletions)
    await cache.delete({ key: RECORD_KEY })
    userCountCache = null
  }

  protected now(): number {
    return this.clock.now().toMillis()
  }

  /** The shared record (a copy: entries are replaced, never changed in place). */
  protected async readRecord(): Promise<BudgetRecord> {
    const record = await cache.get<BudgetRecord>({ key: RECORD_KEY })
    return Array.isArray(record) && record.length === 2 ? [record[0], record[1]] : [null, null]
  }

  protected async uncount(keys: string[], calls: number) {
    await Promise.all(keys.map((key, i) => counterFor(i).decrement(counterKey(i, key), calls)))
  }
}

/**
 * The budget of one unit of work (a sync, an event fetch), handed to its Polar client: the
 * transport calls `beforeRequest` before each HTTP attempt and `afterResponse` with the headers of
 * each answer. Calls reserved up front are used first; further calls are counted one by one, for a
 * run admitted with a reservation against the next class's share (CONTINUATION_KIND).
 */
export class BudgetAllowance {
  #prepaid: number
  #block: BudgetReservation | null
  #latest: BudgetReservation | null

  constructor(
    protected service: PolarBudgetService,
    readonly kind: PolarWorkKind,
    reservation: BudgetReservation | null
  ) {
    this.#block = reservation
    this.#latest = reservation
    this.#prepaid = reservation?.calls ?? 0
  }

  /** Counts one call; throws PolarBudgetExhaustedError when it must wait. */
  async beforeRequest(_endpoint: string): Promise<void> {
    if (this.#prepaid > 0) {
      this.#prepaid--
      return
    }
    this.#latest = await this.service.reserve(1, this.kind, this.#block ? CONTINUATION_KIND[this.kind] : this.kind)
  }

  /**
   * Records Polar's headers. A 429 is left out: it goes through the "blocked until" marker
   * (ProviderRateLimitService), and a test's injected 429 carries made-up usage.
   */
  async afterResponse(status: number, state: RateLimitState): Promise<void> {
    if (status === 429) return
    await this.service.observe(state, this.#latest)
  }

  /** Gives back the reserved calls that were not made (call once the work is done). */
  async release(): Promise<void> {
    const unused = this.#prepaid
    this.#prepaid = 0
    if (this.#block && unused > 0) await this.service.refund(this.#block, unused)
  }
}

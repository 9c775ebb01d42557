import type { Group } from '@japa/runner/core'
import db from '@adonisjs/lucid/services/db'
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import { startPolarSimulator, type PolarSimulator, type SimOptions } from '#simulators/polar/simulator'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { ResponseCache } from '#services/response_cache'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { pinClock, type PinnedClock } from '#tests/helpers/clock'
import { emptyDatabase } from '#tests/helpers/database'
import { SYNC_TYPES } from '#services/sync/sync_types'

/** Days before/after an ISO date. */
export function shiftDate(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ days }).toISODate()!
}

export interface SimulatorContext {
  sim: PolarSimulator
  clock: PinnedClock
  /** Moves both the app's and the simulator's "today". */
  setToday(date: string): void
  close(): Promise<void>
}

/**
 * Starts the Polar simulator on loopback with a pinned "today", and points the app's Polar clients
 * and clock at it (container swaps, undone by `close`). A shared Polar rate-limit marker and the
 * Polar budget's counters are cleared before and after.
 */
export async function startSimulatorContext(today = '2026-03-15', options: SimOptions = {}): Promise<SimulatorContext> {
  const sim = await startPolarSimulator({ today, ...options })
  const pin = pinClock(`${today}T12:00:00`)
  // After pinning: the budget's counters of the pinned windows go too.
  await new ProviderRateLimitService().clear()
  app.container.swap(
    PolarClientFactory,
    () =>
      new PolarClientFactory({ baseUrl: sim.url, authUrl: sim.authUrl, tokenUrl: sim.tokenUrl, retryDelayMs: 5, timeoutMs: 3000 })
  )
  return {
    sim,
    clock: pin.clock,
    setToday(date: string) {
      pin.clock.set(`${date}T12:00:00`)
      sim.setToday(date)
    },
    async close() {
      await new ProviderRateLimitService().clear()
      pin()
      app.container.restore(PolarClientFactory)
      await sim.close()
    },
  }
}

/** A token the simulator maps to a complete profile with biosensing (no missing days). */
export const completeToken = (name: string) => `${name}_bio_complete`

/** Polls until `check` returns a value, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const value = await check()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`condition not met within ${ms} ms`)
}

/**
 * Empties every table and the Redis job queues now and again after the test (work here runs on other connections: the
 * queue worker, the lock store), so rows left by earlier test files never leak in.
 */
export async function freshDatabase(): Promise<() => Promise<void>> {
  await emptyDatabase()
  return emptyDatabase
}

/**
 * A fresh simulator, an empty database and an empty read cache (its answers belong to the emptied
 * tables) around every test of `group` (what most sync specs need); the returned function gives the
 * running test's context.
 */
export function simulatorPerTest(group: Group, today = '2026-03-15', options: SimOptions = {}): () => SimulatorContext {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    ctx = await startSimulatorContext(today, options)
    const cleanup = await freshDatabase()
    ;(await app.container.make(ResponseCache)).clear()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })
  return () => ctx
}

/** Every stored data row of a user, per table, ordered by id (for before/after comparisons). */
export async function snapshot(userId: number): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {}
  for (const type of SYNC_TYPES) out[type.table] = await db.from(type.table).where('user_id', userId).orderBy('id')
  return out
}

/**
 * Pure arithmetic of HRVault's Polar request budget (reference §11): limits, shares per class of
 * work, the shared counters' window keys, how a `RateLimit-*` reading updates a window, and how
 * long the background-sync interval must be. No I/O, no clock: PolarBudgetService supplies both.
 */

/** Polar's two rate-limit windows per client: length, base limit and increment per registered user. */
export const POLAR_WINDOWS = [
  { name: 'short', seconds: 900, base: 500, perUser: 20 },
  { name: 'long', seconds: 86_400, base: 5000, perUser: 100 },
] as const

export type PolarWindowName = (typeof POLAR_WINDOWS)[number]['name']

/**
 * Classes of Polar work, highest rank first: `event` (webhook-driven fetches, and the few calls
 * of connecting an account or managing the webhook), `backfill` (first sync of a newly connected
 * user), `manual` (API trigger, admin Sync now, `node ace sync`), `scheduled` (background full
 * syncs and reconciliation).
 */
export type PolarWorkKind = 'event' | 'backfill' | 'manual' | 'scheduled'

/**
 * Share of each window's limit a class may fill. Events bring the newest data in 1–2 calls and
 * cannot be postponed without going stale, so they may use the whole window. Back-fills and
 * manual syncs have someone waiting for them; they stop 5 % short, which stays free for events.
 * Scheduled syncs can always run later; they stop at 90 %, so events, back-fills and manual
 * syncs keep 10 % of every window (500 + 10·U calls a day) even when the schedule is behind.
 */
export const WORK_SHARES: Record<PolarWorkKind, number> = {
  event: 1,
  backfill: 0.95,
  manual: 0.95,
  scheduled: 0.9,
}

/**
 * The class whose share a run admitted as `kind` may use for calls beyond what it reserved at its
 * start (the exercise details of a first sync): the next class up. A run cut off half-way loses
 * the type it was fetching and fetches it again later, so an admitted run may finish into the
 * headroom above its own class, never past the limit.
 */
export const CONTINUATION_KIND: Record<PolarWorkKind, PolarWorkKind> = {
  event: 'event',
  backfill: 'event',
  manual: 'event',
  scheduled: 'manual',
}

/**
 * Calls of a full re-sync of 28 days: one call per synced type that pulls its own items (types with
 * `from` map another type's answer; exercise details come on top).
 */
export const CALLS_PER_FULL_SYNC = 13

/** Longest range one AccessLink list call covers; longer syncs need a call per 28-day chunk. */
export const DAYS_PER_CALL = 28

/**
 * Share of a window the schedule is planned to fill (below the `scheduled` cap of 90 %): the
 * remaining 10 % absorbs back-fills, manual syncs and the bigger first syncs of new users, so the
 * schedule is not deferred by them every day.
 */
export const SCHEDULE_PLANNING_SHARE = 0.8

/** A newer `RateLimit-Reset` this much earlier than the recorded one means Polar resets sooner. */
export const RESET_TOLERANCE_MS = 2_000

/** Polar's limits by the formula of reference §11 for `users` registered users: [short, long]. */
export function formulaLimits(users: number): [number, number] {
  const n = Math.max(0, Math.floor(users))
  return [POLAR_WINDOWS[0].base + POLAR_WINDOWS[0].perUser * n, POLAR_WINDOWS[1].base + POLAR_WINDOWS[1].perUser * n]
}

/** Calls of `kind` work a window of `limit` admits in total (its share, rounded down). */
export function capOf(limit: number, kind: PolarWorkKind): number {
  return Math.floor(limit * WORK_SHARES[kind])
}

/** Calls a sync of `days` days is expected to make: a full sync per 28-day chunk. */
export function expectedSyncCalls(days: number): number {
  return CALLS_PER_FULL_SYNC * Math.max(1, Math.ceil(days / DAYS_PER_CALL))
}

/** One window as every process shares it (from Polar's headers, merged by {@link mergeReading}). */
export interface BudgetWindow {
  /** Key of the window's shared call counter. */
  key: string
  /** Epoch milliseconds at which Polar resets the window. */
  resetsAt: number
  /** Polar's limit at the latest reading. */
  limit: number
  /** Polar's usage at the latest recorded reading. */
  usage: number
  /**
   * Calls Polar counted that the shared counter did not (sent before the counter started, or by
   * another user of the same client credentials): the largest `usage − counter` seen in the window.
   */
  drift: number
  /** Epoch milliseconds of the latest recorded reading. */
  observedAt: number
}

/** The shared record: one entry per window of POLAR_WINDOWS, null while nothing was read. */
export type BudgetRecord = [BudgetWindow | null, BudgetWindow | null]

const lengthMs = (index: number) => POLAR_WINDOWS[index].seconds * 1000

/**
 * Key of the counter that calls sent at `now` count against. Within a known window its key; once
 * it has reset, one derived from its reset time (each further window length after it is another
 * key), so every process picks the same key without talking to the others; with no reading at all,
 * the clock's window of that length.
 */
export function windowKey(window: BudgetWindow | null, index: number, now: number): string {
  if (!window) return `c${Math.floor(now / lengthMs(index))}`
  if (now < window.resetsAt) return window.key
  return `r${window.resetsAt}.${Math.floor((now - window.resetsAt) / lengthMs(index))}`
}

/** When the window that `windowKey` names for `now` resets (Polar's time when known, else estimated). */
export function windowResetsAt(window: BudgetWindow | null, index: number, now: number): number {
  if (!window) return (Math.floor(now / lengthMs(index)) + 1) * lengthMs(index)
  if (now < window.resetsAt) return window.resetsAt
  return window.resetsAt + (Math.floor((now - window.resetsAt) / lengthMs(index)) + 1) * lengthMs(index)
}

/** Calls the window behind `key` holds: the shared counter plus the drift Polar showed for it. */
export function estimatedUsage(window: BudgetWindow | null, key: string, counter: number): number {
  return counter + (window && window.key === key ? window.drift : 0)
}

/** One window of a `RateLimit-*` reading: usage, limit, seconds until reset. */
export interface WindowReading {
  usage: number
  limit: number
  resetSeconds: number
}

/**
 * The window after a reading at `now`. `key` is windowKey(current, …, now) and `counter` that
 * counter's value once the call was counted. Within the same window the limit follows Polar, the
 * drift only grows and an earlier reset is believed; otherwise the reading starts the next window.
 * `changed` is false when nothing worth writing to the shared store changed.
 */
export function mergeReading(
  current: BudgetWindow | null,
  reading: WindowReading,
  now: number,
  key: string,
  counter: number
): { window: BudgetWindow; changed: boolean } {
  const resetsAt = now + Math.max(0, reading.resetSeconds) * 1000
  const drift = Math.max(0, reading.usage - counter)
  if (current && now < current.resetsAt && key === current.key) {
    const earlier = resetsAt < current.resetsAt - RESET_TOLERANCE_MS
    const window: BudgetWindow = {
      key,
      resetsAt: earlier ? resetsAt : current.resetsAt,
      limit: reading.limit,
      usage: reading.usage,
      drift: Math.max(current.drift, drift),
      observedAt: now,
    }
    const changed = earlier || window.limit !== current.limit || window.drift !== current.drift
    return { window, changed }
  }
  return { window: { key, resetsAt, limit: reading.limit, usage: reading.usage, drift, observedAt: now }, changed: true }
}

/**
 * Shortest background-sync interval (ms) at which `users` full syncs per interval fit
 * SCHEDULE_PLANNING_SHARE of every window: users × calls × window ÷ interval ≤ share × limit.
 */
export function requiredIntervalMs(
  users: number,
  limits: readonly number[],
  callsPerSync = CALLS_PER_FULL_SYNC,
  share = SCHEDULE_PLANNING_SHARE
): number {
  if (users <= 0) return 0
  return Math.max(
    ...POLAR_WINDOWS.map((window, index) => {
      const usable = share * (limits[index] ?? 0)
      return usable > 0 ? Math.ceil((users * callsPerSync * window.seconds * 1000) / usable) : Number.POSITIVE_INFINITY
    })
  )
}

/**
 * The interval the scheduler uses: the configured one, or, when the budget needs longer, the
 * smallest whole multiple of it that fits. Whole multiples keep the slot length (and with it the
 * schedule) stable while the number of users grows a little: with Polar's formula the required
 * interval tends to 13 × 1 440 ÷ (0.8 × 100) = 234 minutes however many users there are, so an
 * hourly setting only ever becomes 2, 3 or 4 hours.
 */
export function effectiveIntervalMs(configuredMs: number, requiredMs: number): number {
  if (!(requiredMs > configuredMs)) return configuredMs
  if (!Number.isFinite(requiredMs)) return configuredMs * 1024
  return configuredMs * Math.ceil(requiredMs / configuredMs)
}

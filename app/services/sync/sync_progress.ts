import logger from '@adonisjs/core/services/logger'
import type { SyncTypeKey } from '#services/sync/sync_types'

/**
 * What a running sync is doing now: `listing` (reading a type's list from Polar), `details` (one
 * call per new item, e.g. each exercise; `details` counts them), `storing` (writing a type's rows),
 * `analytics` (recomputing baselines and patterns after the types). Null once the run has ended.
 */
export type SyncPhase = 'listing' | 'details' | 'storing' | 'analytics'

/** Live progress of a running sync (`sync_runs.progress`, for a "Sync now" UI). */
export interface SyncProgress {
  /** Types finished (stored or failed). */
  done: number
  total: number
  /** Type being worked on, null in the analytics phase and when finished. */
  current: SyncTypeKey | null
  phase: SyncPhase | null
  /** Detail calls done and to do in the `details` phase, else null. */
  details: { done: number; total: number } | null
}

/**
 * Writes a run's live progress as it changes, at most once per `intervalMs`: a change inside the
 * interval is written when it ends (the latest state, so a long phase never shows the one before
 * it). Writes run one after another; `close()` waits for the last one and stops further writes, so
 * nothing lands after the run's final save.
 */
export class ProgressWriter {
  #timer: ReturnType<typeof setTimeout> | null = null
  #chain: Promise<void> = Promise.resolve()
  #lastWrite = 0
  #closed = false

  constructor(
    protected write: () => Promise<void>,
    protected intervalMs: number
  ) {}

  /** The progress changed: write it now, or when the interval since the last write ends. */
  changed() {
    if (this.#closed) return
    const wait = this.#lastWrite + this.intervalMs - Date.now()
    if (wait <= 0) void this.flush()
    else this.#timer ??= setTimeout(() => void this.flush(), wait)
  }

  /** Writes the current progress now (a phase worth showing at once, like analytics); resolves once written. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    if (this.#closed) return this.#chain
    this.#lastWrite = Date.now()
    this.#chain = this.#chain.then(() =>
      this.write().catch((error) => logger.warn({ err: error }, 'sync progress could not be written'))
    )
    return this.#chain
  }

  /** Waits for the pending write; nothing is written afterwards. */
  async close() {
    this.#closed = true
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    await this.#chain
  }
}

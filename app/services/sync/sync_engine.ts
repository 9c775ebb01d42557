import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import SyncRun from '#models/sync_run'
import type User from '#models/user'
import { AnalyticsService } from '#services/analytics/analytics_service'
import { ClockService } from '#services/clock_service'
import { PolarConsentError } from '#services/polar/errors/polar_consent_error'
import { PolarBudgetExhaustedError } from '#services/polar/errors/polar_budget_exhausted_error'
import { PolarError } from '#services/polar/errors/polar_error'
import { PolarRateLimitError } from '#services/polar/errors/polar_rate_limit_error'
import { PolarUnauthorizedError } from '#services/polar/errors/polar_unauthorized_error'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import type { RateLimitState } from '#services/polar/transport'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { expectedSyncCalls, type PolarWorkKind } from '#services/sync/polar_budget'
import { PolarBudgetService, type BudgetAllowance } from '#services/sync/polar_budget_service'
import { latestSleepOffset, storedExerciseIds, upsertRows } from '#services/sync/queries'
import { SYNC_TYPES, emptyCounts, type SyncCounts, type SyncTypeDefinition, type SyncTypeKey } from '#services/sync/sync_types'
import { ProgressWriter, type SyncPhase, type SyncProgress } from '#services/sync/sync_progress'
import type { Fetched, Pulled } from '#services/records/data_types'
import { RawArchiveService } from '#services/records/raw_archive_service'
import { AccountBindingService } from '#services/polar/account_binding_service'
import ProviderAccountMismatchException from '#exceptions/provider_account_mismatch_exception'

/** Who started a sync (stored on the sync run). */
export type SyncTrigger = 'api' | 'scheduler' | 'connect' | 'command' | 'admin' | 'demo'

/**
 * Final state of a sync run (`sync_runs.status` is `running` meanwhile, and `interrupted` when the
 * process running it died).
 */
export type SyncStatus = 'success' | 'partial' | 'failed' | 'rate_limited'

export type { SyncPhase, SyncProgress }

export interface SyncOptions {
  /** The user's Polar access token for this sync (never stored by the engine). */
  token: string
  /** Calendar days ending today (APP_TIMEZONE). */
  days: number
  trigger: SyncTrigger
  /** Queue job id when the sync runs as a job. */
  jobId?: string | null
  /** A `queued` run created when the sync was enqueued (`?wait=false`): this sync starts it. */
  runId?: number | null
  /** Called after each type (the phases within a type are only written to the run). */
  onProgress?: (progress: SyncProgress, type: SyncTypeKey, count: number | null) => void
}

/** What one sync of one user did. */
export interface SyncOutcome {
  runId: number
  userId: string
  status: SyncStatus
  days: number
  from: string
  to: string
  /** Records per type in the window (the spec's 11 keys plus `heart_rate`). */
  results: SyncCounts
  /** Type → message for every type that failed (empty on success). */
  errors: Partial<Record<SyncTypeKey, string>>
  /** Rows inserted or updated. */
  rowsWritten: number
  /** HTTP requests sent to Polar (retries included). */
  providerCalls: number
  callsByEndpoint: Record<string, number>
  /** Polar's last `RateLimit-*` headers. */
  rateLimit: RateLimitState | null
  /** Seconds until Polar accepts calls again when rate-limited, else null. */
  retryAfterSeconds: number | null
  /**
   * True when HRVault held the sync back because its class of work had used its share of Polar's
   * budget (status `rate_limited`, nothing more sent): retry after `retryAfterSeconds`.
   */
  deferred: boolean
  durationMs: number
}

/**
 * Live progress is written at most this often: often enough for a "Sync now" UI polling it, without
 * a write per phase when phases take milliseconds (a change inside the interval is written when it
 * ends). The final state is always written with the run.
 */
const PROGRESS_INTERVAL_MS = 250

/** Syncs a person asked for; they probe Polar even while a shared rate limit is recorded. */
const MANUAL_TRIGGERS = new Set<SyncTrigger>(['api', 'command', 'admin'])

/**
 * The class of Polar work a sync is (PolarBudgetService): a back-fill after connecting ranks above
 * the schedule, with the syncs a person asked for.
 */
const WORK_KIND: Record<SyncTrigger, PolarWorkKind> = {
  scheduler: 'scheduled',
  connect: 'backfill',
  api: 'manual',
  command: 'manual',
  admin: 'manual',
  demo: 'manual',
}

/** A failure that makes every later call pointless (bad token, missing consent, rate limit). */
function isFatal(error: unknown) {
  return error instanceof PolarUnauthorizedError || error instanceof PolarConsentError || error instanceof PolarRateLimitError
}

/**
 * The per-user sync (DESIGN §4): for each data type fetch → map → idempotent batched upsert as its
 * own atomic write (one statement, or a transaction), so one type failing never loses another's data. Records a `sync_runs` row with
 * per-type counts and errors, provider calls, rate-limit headers and live progress; then
 * recomputes the user's baselines and patterns when rows were written. A bad token, missing consents or a rate limit stop the remaining
 * calls; a rate limit is shared with every background sync (ProviderRateLimitService). Before any
 * call the run is admitted against Polar's shared budget (PolarBudgetService) for the calls it
 * expects; a run that does not fit, or runs out of budget half-way, stops like a rate limit
 * (`rate_limited`, `deferred`), keeping what it stored. Callers hold the per-user lock (see UserSyncService).
 */
@inject()
export class SyncEngine {
  constructor(
    protected clock: ClockService,
    protected clients: PolarClientFactory,
    protected analytics: AnalyticsService,
    protected rateLimits: ProviderRateLimitService,
    protected accounts: AccountBindingService,
    protected budget: PolarBudgetService,
    protected rawArchive: RawArchiveService
  ) {}

  async run(user: User, options: SyncOptions): Promise<SyncOutcome> {
    const started = this.clock.now()
    const startedMs = Date.now()
    const { from, to } = this.clock.window(options.days)
    const results = emptyCounts()
    const errors: Partial<Record<SyncTypeKey, string>> = {}
    const progress: SyncProgress = { done: 0, total: SYNC_TYPES.length, current: SYNC_TYPES[0].key, phase: 'listing', details: null }

    // The caller holds the user's lock, so a run still marked running belongs to a process that died.
    await db
      .from('sync_runs')
      .where('user_id', user.id)
      .where('status', 'running')
      .update({ status: 'interrupted', finished_at: started.toFormat(db.connection().dialect.dateTimeFormat) })

    const attributes = {
      userId: user.id,
      trigger: options.trigger,
      status: 'running',
      days: options.days,
      progress: JSON.stringify(progress),
      providerCalls: 0,
      jobId: options.jobId ?? null,
      startedAt: started,
    }
    const queued = options.runId
      ? await SyncRun.query().where('id', options.runId).where('userId', user.id).where('status', 'queued').first()
      : null
    const run = queued ? await queued.merge(attributes).save() : await SyncRun.create(attributes)

    // Another sync (any process) already hit Polar's limit: background syncs wait for the reset
    // instead of spending calls Polar would refuse; a manual sync probes (one refused call at most).
    const blockedFor = MANUAL_TRIGGERS.has(options.trigger) ? null : await this.rateLimits.blockedFor()
    let fatal: PolarError | null = blockedFor === null ? null : new PolarRateLimitError('the shared AccessLink client', blockedFor)
    // The whole run is reserved up front, so a full window stops syncs before their first call.
    let allowance: BudgetAllowance | undefined
    if (!fatal) {
      try {
        allowance = await this.budget.admit(WORK_KIND[options.trigger], expectedSyncCalls(options.days))
      } catch (error) {
        if (!(error instanceof PolarBudgetExhaustedError)) throw error
        fatal = error
      }
    }
    const client = this.clients.accessLink(options.token, allowance)
    const progressWriter = new ProgressWriter(async () => {
      await db
        .from('sync_runs')
        .where('id', run.id)
        .where('status', 'running')
        .update({ progress: JSON.stringify(progress), provider_calls: client.callCount })
    }, PROGRESS_INTERVAL_MS)
    const enter = (phase: SyncPhase, details: SyncProgress['details'] = null) => {
      progress.phase = phase
      progress.details = details
      progressWriter.changed()
    }
    let rowsWritten = 0
    let knownExercises: Promise<Set<string>> | null = null
    const pulledItems = new Map<string, Pulled>()
    // Fetched types wait here until the Polar account of the data is confirmed (the first answer
    // naming it, usually sleep): nothing is written for a token of another account.
    let pending: Array<{ type: SyncTypeDefinition; fetched: Fetched }> = []
    // Wire items wait with them and are archived where the rows are written, even when mapping
    // them failed (the archive is what a fixed mapper re-derives from).
    let unarchived: Array<{ key: SyncTypeKey; items: unknown[] }> = []
    const archiveFailures: string[] = []
    let accountConfirmed = false
    const writePending = async () => {
      for (const { type, fetched } of pending) {
        progress.current = type.key
        enter('storing')
        // Atomic on its own (one statement, or its own transaction for very many rows): a type
        // failing never loses another type's rows.
        try {
          rowsWritten += await upsertRows(db.connection(), type.table, user.id, type.naturalKey, fetched.rows, this.clock.now())
          results[type.key] = fetched.count ?? fetched.rows.length
        } catch (error) {
          errors[type.key] = this.describe(error, type.key, user)
        }
      }
      pending = []
      for (const { key, items } of unarchived) {
        if (await this.rawArchive.keep(user.id, key, items)) archiveFailures.push(key)
      }
      unarchived = []
    }
    const confirmAccount = async () => {
      try {
        await this.accounts.confirm(user, client.accountIds)
      } catch (error) {
        if (error instanceof ProviderAccountMismatchException) {
          await progressWriter.close()
          await this.refuse(run, error, client.callCount, queued !== null)
        }
        await allowance?.release()
        throw error
      }
      accountConfirmed = true
    }

    for (const type of SYNC_TYPES) {
      progress.current = type.key
      // A type mapped from another's items makes no call: it only stores.
      enter(type.from ? 'storing' : 'listing')
      let count: number | null = null
      if (fatal) {
        errors[type.key] = fatal.message
      } else if (type.from && !pulledItems.has(type.from)) {
        // Mapped from the items of a type that failed: fails with it, with its reason.
        errors[type.key] = errors[type.from as SyncTypeKey] ?? `${type.from} was not fetched`
      } else {
        try {
          const mapContext = { offsetMinutes: () => latestSleepOffset(db.connection(), user.id), range: { from, to } }
          let fetched: Fetched
          if (type.from) {
            // No call of its own: the items another type pulled, one row per item (so that type's count).
            const source = pulledItems.get(type.from)!
            fetched = { rows: await type.map(source.items, mapContext), count: source.count }
          } else {
            const pulled = await type.pull({
              client,
              range: { from, to },
              knownExerciseIds: () => (knownExercises ??= storedExerciseIds(db.connection(), user.id)),
              onDetails: (done, total) => enter('details', { done, total }),
            })
            pulledItems.set(type.key, pulled)
            unarchived.push({ key: type.key, items: pulled.items })
            fetched = { count: pulled.count, rows: await type.map(pulled.items, mapContext) }
          }
          pending.push({ type, fetched })
          count = fetched.count ?? fetched.rows.length
        } catch (error) {
          errors[type.key] = this.describe(error, type.key, user)
          if (isFatal(error)) fatal = error as PolarError
          // Polar's own 429 stops every background sync; a budget hold-back leaves room for events.
          if (error instanceof PolarRateLimitError && !(error instanceof PolarBudgetExhaustedError)) {
            await this.rateLimits.block(error.retryAfterSeconds)
          }
        }
        if (!accountConfirmed && client.accountIds.size > 0) await confirmAccount()
        if (accountConfirmed) await writePending()
      }
      progress.done++
      options.onProgress?.({ ...progress, current: SYNC_TYPES[progress.done]?.key ?? null }, type.key, count)
    }
    // No answer named an account (no sleep, recharge, exercise or heart-rate data): nothing to check.
    if (!accountConfirmed) await confirmAccount()
    // Calls reserved but not made go back to the shared budget (an error before this point leaves
    // them counted until the window resets: the safe side).
    await allowance?.release()
    await writePending()

    // The one post-sync step, while the run still shows it: recompute baselines and patterns;
    // analytics logs its own errors and never fails a sync.
    if (rowsWritten > 0) {
      progress.current = null
      enter('analytics')
      await progressWriter.flush()
      await this.analytics.recomputeAfterSync(user.id)
    }
    await progressWriter.close()
    progress.current = null
    progress.phase = null
    progress.details = null

    const failedTypes = Object.keys(errors).length
    const status: SyncStatus =
      fatal instanceof PolarRateLimitError
        ? 'rate_limited'
        : failedTypes === SYNC_TYPES.length
          ? 'failed'
          : failedTypes > 0
            ? 'partial'
            : 'success'
    const finished = this.clock.now()
    // An archive failure is noted in the run (`raw_archive`) without failing it: the rows are stored.
    const runErrors =
      archiveFailures.length > 0 ? { ...errors, raw_archive: `archiving ${archiveFailures.join(', ')} failed; the rows were stored` } : errors

    run.merge({
      status,
      results: JSON.stringify(results),
      errors: Object.keys(runErrors).length > 0 ? JSON.stringify(runErrors) : null,
      progress: JSON.stringify(progress),
      providerCalls: client.callCount,
      rateLimit: client.rateLimit ? JSON.stringify(client.rateLimit) : null,
      finishedAt: finished,
    })
    await run.save()

    if (status === 'success' || status === 'partial') {
      user.lastSyncedAt = finished
      await user.save()
    }

    const outcome: SyncOutcome = {
      runId: run.id,
      userId: user.externalId,
      status,
      days: options.days,
      from,
      to,
      results,
      errors,
      rowsWritten,
      providerCalls: client.callCount,
      callsByEndpoint: { ...client.callsByEndpoint },
      rateLimit: client.rateLimit,
      retryAfterSeconds: fatal instanceof PolarRateLimitError ? fatal.retryAfterSeconds : null,
      deferred: fatal instanceof PolarBudgetExhaustedError,
      durationMs: Date.now() - startedMs,
    }
    logger.info(
      { userId: user.id, runId: run.id, status, rowsWritten, providerCalls: outcome.providerCalls, durationMs: outcome.durationMs },
      'sync finished'
    )
    return outcome
  }

  /**
   * Drops the run of a sync whose data belongs to another Polar account: a refused sync leaves no
   * row, except a run a client was given the URL of (`?wait=false`), which ends `failed` with the reason.
   */
  protected async refuse(run: SyncRun, error: ProviderAccountMismatchException, providerCalls: number, keep = false) {
    if (keep) {
      await run.merge({ status: 'failed', errors: JSON.stringify({ account: error.message }), providerCalls, finishedAt: this.clock.now() }).save()
    } else {
      await run.delete()
    }
    logger.warn(
      { userId: run.userId, providerCalls, reason: error.message },
      'sync refused: the token belongs to another Polar account; nothing was stored'
    )
  }

  /** A per-type message safe for responses: Polar's reason, or a generic storage failure. */
  protected describe(error: unknown, type: SyncTypeKey, user: User): string {
    if (error instanceof PolarError) return error.message
    logger.error({ err: error, userId: user.id, type }, 'sync type failed while storing')
    return `Storing ${type} failed inside HRVault; the error was logged.`
  }
}

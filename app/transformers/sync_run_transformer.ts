import { BaseTransformer } from '@adonisjs/core/transformers'
import { DateTime } from 'luxon'
import type SyncRun from '#models/sync_run'
import type { RateLimitState } from '#services/polar/transport'
import type { SyncProgress } from '#services/sync/sync_progress'

/** A sync run and the external id of its user. */
export interface SyncRunView {
  run: SyncRun
  userId: string
}

const parse = <T>(text: string | null): T | null => {
  if (!text) return null
  try {
    return JSON.parse(text) as T
  } catch {
    return null
  }
}

const iso = (value: DateTime | null) => (value ? value.toUTC().toISO({ suppressMilliseconds: true }) : null)

/**
 * One sync run: who started it, when, how it ended, records per type and per-type errors, the
 * calls sent to Polar and Polar's last rate-limit headers. `results` and `duration_ms` are null
 * until the run has finished; `progress` shows a running run's types done and its phase.
 */
export default class SyncRunTransformer extends BaseTransformer<SyncRunView> {
  toObject() {
    const { run, userId } = this.resource
    const rateLimit = parse<RateLimitState>(run.rateLimit)
    return {
      run_id: run.id,
      user_id: userId,
      trigger: run.trigger,
      status: run.status,
      days: run.days,
      started_at: iso(run.startedAt),
      finished_at: iso(run.finishedAt),
      duration_ms: run.finishedAt ? Math.max(0, run.finishedAt.toMillis() - run.startedAt.toMillis()) : null,
      results: parse<Record<string, number>>(run.results),
      errors: parse<Record<string, string>>(run.errors) ?? {},
      provider_calls: run.providerCalls,
      rate_limit: rateLimit
        ? {
            usage: rateLimit.usage,
            limit: rateLimit.limit,
            reset: rateLimit.reset,
            observed_at: iso(DateTime.fromMillis(rateLimit.observedAt)),
          }
        : null,
      progress: parse<SyncProgress>(run.progress),
    }
  }
}

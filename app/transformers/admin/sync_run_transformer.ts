import { BaseTransformer } from '@adonisjs/core/transformers'
import type SyncRun from '#models/sync_run'
import type { SyncProgress } from '#services/sync/sync_engine'

/** A JSON column's value, or null when it is empty or unreadable. */
function parseJson<T>(value: string | null): T | null {
  if (value === null || value === undefined) return null
  try {
    return JSON.parse(value) as T
  } catch {
    return null
  }
}

/**
 * One sync run as the admin UI shows it (users page, overview, Sync now
 * progress): per-type counts in `results`, type → message in `errors`, and
 * `progress` while the run is going.
 */
export default class SyncRunTransformer extends BaseTransformer<SyncRun> {
  toObject() {
    const run = this.resource
    return {
      id: run.id,
      status: run.status,
      trigger: run.trigger,
      days: run.days,
      started_at: run.startedAt.toISO()!,
      finished_at: run.finishedAt?.toISO() ?? null,
      provider_calls: run.providerCalls,
      results: parseJson<Record<string, number>>(run.results),
      errors: parseJson<Record<string, string>>(run.errors),
      progress: parseJson<SyncProgress>(run.progress),
    }
  }
}

import { BaseTransformer } from '@adonisjs/core/transformers'
import type { SyncOutcome } from '#services/sync/sync_engine'
import { SYNC_TYPE_KEYS } from '#services/sync/sync_types'

/**
 * Spec "Sync result": `status`, `user_id`, `results` (the 11 spec keys plus `heart_rate`), and
 * `errors` (type → message) when the status is `partial`; beside them `run_id` (the run at
 * `/sync/runs/{run_id}`) and `duration_ms`.
 */
export default class SyncResultTransformer extends BaseTransformer<SyncOutcome> {
  toObject() {
    const o = this.resource
    const results = Object.fromEntries(SYNC_TYPE_KEYS.map((key) => [key, o.results[key] ?? 0]))
    return {
      status: o.status,
      user_id: o.userId,
      results,
      ...(o.status === 'partial' ? { errors: o.errors } : {}),
      run_id: o.runId,
      duration_ms: o.durationMs,
    }
  }
}

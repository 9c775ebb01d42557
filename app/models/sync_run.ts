import { SyncRunSchema } from '#database/schema'

/** One sync of one user: trigger, status, per-type counts and errors (JSON). */
export default class SyncRun extends SyncRunSchema {
  static table = 'sync_runs'
}

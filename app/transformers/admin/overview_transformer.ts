import { BaseTransformer } from '@adonisjs/core/transformers'
import type { OverviewData } from '#services/admin/overview_service'
import InsightsTransformer from '#transformers/insights_transformer'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'

/**
 * The overview page of one user: chart series with their normal ranges, the
 * spec's insights record (as the API serves it) and the sync state.
 */
export default class OverviewTransformer extends BaseTransformer<OverviewData> {
  toObject() {
    const o = this.resource
    return {
      userId: o.user.externalId,
      connected: o.user.isConnected,
      days: o.days,
      from: o.from,
      to: o.to,
      charts: o.charts,
      insights: new InsightsTransformer(o.insights).toObject(),
      lastRun: o.lastRun ? new SyncRunTransformer(o.lastRun).toObject() : null,
      lastSyncedAt: o.user.lastSyncedAt?.toISO() ?? null,
      recordDays: o.recordDays,
    }
  }
}

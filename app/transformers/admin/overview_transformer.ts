import { BaseTransformer } from '@adonisjs/core/transformers'
import type { OverviewData } from '#services/admin/overview_service'
import InsightsTransformer from '#transformers/insights_transformer'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'

/**
 * The overview page of one user: headline tiles, chart series with their normal ranges and
 * explained anomalies, the spec's insights record (as the API serves it), data freshness and
 * the sync state.
 */
export default class OverviewTransformer extends BaseTransformer<OverviewData> {
  toObject() {
    const o = this.resource
    return {
      userId: o.user.externalId,
      connected: o.user.isConnected,
      days: o.range.days,
      from: o.range.from,
      to: o.range.to,
      custom: o.range.custom,
      tiles: o.tiles,
      freshness: o.freshness,
      charts: o.charts,
      insights: new InsightsTransformer(o.insights).toObject(),
      lastRun: o.lastRun ? new SyncRunTransformer(o.lastRun).toObject() : null,
      lastSyncedAt: o.user.lastSyncedAt?.toISO() ?? null,
      recordDays: o.recordDays,
    }
  }
}

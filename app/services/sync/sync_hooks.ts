import { inject } from '@adonisjs/core'
import type User from '#models/user'
import { AnalyticsService } from '#services/analytics/analytics_service'
import type { SyncStatus } from '#services/sync/sync_engine'

/**
 * The single hook point after a sync that stored data: recompute the user's baselines and
 * patterns (DESIGN §4). Analytics never fails a sync; its service logs its own errors.
 */
@inject()
export class SyncHooks {
  constructor(protected analytics: AnalyticsService) {}

  async afterSync(user: User, _status: SyncStatus): Promise<void> {
    await this.analytics.recomputeAfterSync(user.id)
  }
}

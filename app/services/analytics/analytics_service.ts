import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { BaselineService } from '#services/analytics/baseline_service'
import { PatternService } from '#services/analytics/pattern_service'

/**
 * Entry point for the sync engine: recompute a user's stored baselines and patterns after a
 * sync that stored data (DESIGN §4). Cheap: one query per source table per step.
 */
@inject()
export class AnalyticsService {
  constructor(
    protected baselines: BaselineService,
    protected patterns: PatternService
  ) {}

  /**
   * Recomputes baselines and patterns of an internal user id. Never throws: analytics must not
   * fail a sync whose data is already stored; a failure is logged and the next sync retries.
   */
  async recomputeAfterSync(userId: number): Promise<boolean> {
    try {
      await this.baselines.recalculate(userId)
      await this.patterns.detect(userId)
      return true
    } catch (error) {
      logger.error({ err: error, userId }, 'analytics recompute failed')
      return false
    }
  }
}

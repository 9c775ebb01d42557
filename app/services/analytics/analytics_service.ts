import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { ClockService } from '#services/clock_service'
import { BaselineService } from '#services/analytics/baseline_service'
import { PatternService } from '#services/analytics/pattern_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { AnalyticsStore } from '#services/analytics/analytics_store'
import { BASELINE_WINDOW_DAYS } from '#services/analytics/baseline_calculator'
import { CORRELATION_WINDOW_DAYS } from '#services/analytics/pattern_calculator'
import { shiftDate } from '#services/analytics/metrics'

/** Both baselines and patterns look back at most this many calendar days. */
const RECOMPUTE_WINDOW_DAYS = Math.max(BASELINE_WINDOW_DAYS, CORRELATION_WINDOW_DAYS)

/**
 * Entry point for the sync engine: recompute a user's stored baselines and patterns after a
 * sync that stored data (DESIGN §4). One read per source table (the 90-day window, served by
 * the `user_id, date` unique index), then pure computation and one transaction writing both.
 */
@inject()
export class AnalyticsService {
  constructor(
    protected clock: ClockService,
    protected loader: SeriesLoader,
    protected baselines: BaselineService,
    protected patterns: PatternService,
    protected store: AnalyticsStore
  ) {}

  /**
   * Recomputes baselines and patterns of an internal user id (`users.id`). Never throws:
   * analytics must not fail a sync whose data is already stored; a failure is logged, returns
   * false, and the next sync retries.
   */
  async recomputeAfterSync(userId: number): Promise<boolean> {
    try {
      const today = this.clock.today().toISODate()!
      const { series } = await this.loader.load(userId, shiftDate(today, -(RECOMPUTE_WINDOW_DAYS - 1)), today)
      await this.store.replaceAll(userId, this.baselines.compute(series, today), this.patterns.compute(series, today), this.clock.now())
      return true
    } catch (error) {
      logger.error({ err: error, userId }, 'analytics recompute failed')
      return false
    }
  }
}

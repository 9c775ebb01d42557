import { inject } from '@adonisjs/core'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { AnalyticsStore } from '#services/analytics/analytics_store'
import { CURRENT_VALUE_DAYS, scanAnomalies, type AnomalyResult } from '#services/analytics/anomaly_calculator'
import { shiftDate } from '#services/analytics/metrics'

/** GET /anomalies: the latest value of each metric checked against the stored baselines. */
@inject()
export class AnomalyService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected loader: SeriesLoader,
    protected store: AnalyticsStore
  ) {}

  /**
   * Values dated within the last 7 days that lie outside their metric's IQR fences, critical
   * first. Metrics without a baseline, or with an insufficient one, are never flagged.
   */
  async scan(externalId: string): Promise<AnomalyResult[]> {
    const user = await this.users.refOrFail(externalId)
    const baselines = await this.store.baselines(user.id)
    if (baselines.length === 0) return []
    const today = this.clock.today().toISODate()!
    const { series } = await this.loader.load(user.id, shiftDate(today, -(CURRENT_VALUE_DAYS - 1)), today)
    return scanAnomalies(baselines, series, today)
  }
}

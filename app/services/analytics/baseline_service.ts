import { inject } from '@adonisjs/core'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import type Baseline from '#models/baseline'
import { AnalyticsStore } from '#services/analytics/analytics_store'
import {
  BASELINE_WINDOW_DAYS,
  computeBaseline,
  type BaselineResult,
  type BaselineStatus,
} from '#services/analytics/baseline_calculator'
import { checkValue, type ValueCheck } from '#services/analytics/anomaly_calculator'
import { isMetricName, METRIC_NAMES, shiftDate, type MetricName, type MetricSeries } from '#services/analytics/metrics'
import UnknownMetricException from '#exceptions/unknown_metric_exception'
import BaselineNotFoundException from '#exceptions/baseline_not_found_exception'

/** Result of GET /baselines/check/{metric_name}/{value}. */
export interface BaselineCheck extends ValueCheck {
  value: number
  baseline: Baseline
}

/**
 * Personal baselines (DESIGN §4): calculation over the 90 calendar days ending today in
 * APP_TIMEZONE, storage, lookup and single-value checks.
 */
@inject()
export class BaselineService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected loader: SeriesLoader,
    protected store: AnalyticsStore
  ) {}

  /**
   * Recalculates and stores every baseline of an internal user id; returns what was stored.
   * `preloaded` (series covering the 90 days ending `today`) spares the read when the caller has it.
   */
  async recalculate(userId: number, preloaded?: { series: MetricSeries; today: string }): Promise<BaselineResult[]> {
    const today = preloaded?.today ?? this.clock.today().toISODate()!
    const series =
      preloaded?.series ??
      (await this.loader.load(userId, shiftDate(today, -(BASELINE_WINDOW_DAYS - 1)), today)).series
    const results = this.compute(series, today)
    await this.store.replaceBaselines(userId, results, this.clock.now())
    return results
  }

  /** Every baseline the series give on `today` (metrics without values have none). */
  compute(series: MetricSeries, today: string): BaselineResult[] {
    return METRIC_NAMES.map((m) => computeBaseline(m, series[m], today)).filter((b): b is BaselineResult => b !== null)
  }

  /** POST /baselines/calculate: metric → status for every metric that has a baseline. */
  async calculate(externalId: string): Promise<Partial<Record<MetricName, BaselineStatus>>> {
    const user = await this.users.refOrFail(externalId)
    const results = await this.recalculate(user.id)
    return Object.fromEntries(results.map((b) => [b.metricName, b.status]))
  }

  /** Stored baselines of a user, in metric order (empty before the first calculation). */
  async list(externalId: string): Promise<Baseline[]> {
    const user = await this.users.refOrFail(externalId)
    return this.store.baselines(user.id)
  }

  /** One stored baseline; 404 for an unknown metric name or when none is stored. */
  async show(externalId: string, metricName: string): Promise<Baseline> {
    const user = await this.users.refOrFail(externalId)
    if (!isMetricName(metricName)) throw new UnknownMetricException(metricName)
    const baseline = await this.store.baseline(user.id, metricName)
    if (!baseline) throw new BaselineNotFoundException(metricName)
    return baseline
  }

  /** Checks a finite value against the stored baseline (never an anomaly while insufficient). */
  async check(externalId: string, metricName: string, value: number): Promise<BaselineCheck> {
    const baseline = await this.show(externalId, metricName)
    return { value, baseline, ...checkValue(value, baseline) }
  }
}

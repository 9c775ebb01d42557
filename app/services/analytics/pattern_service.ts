import { inject } from '@adonisjs/core'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import type Pattern from '#models/pattern'
import { AnalyticsStore } from '#services/analytics/analytics_store'
import { CORRELATION_WINDOW_DAYS, computePatterns, type PatternResult, type Significance } from '#services/analytics/pattern_calculator'
import { isPatternName, shiftDate, type MetricSeries, type PatternName } from '#services/analytics/metrics'
import UnknownPatternException from '#exceptions/unknown_pattern_exception'
import PatternNotFoundException from '#exceptions/pattern_not_found_exception'

/** Pattern detection (DESIGN §4): correlation, trends and the overtraining composite. */
@inject()
export class PatternService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected loader: SeriesLoader,
    protected store: AnalyticsStore
  ) {}

  /**
   * Detects and stores all four patterns of an internal user id (insufficient ones included).
   * `preloaded` (series covering the 90 days ending `today`) spares the read when the caller has it.
   */
  async detect(userId: number, preloaded?: { series: MetricSeries; today: string }): Promise<PatternResult[]> {
    const today = preloaded?.today ?? this.clock.today().toISODate()!
    const series =
      preloaded?.series ??
      (await this.loader.load(userId, shiftDate(today, -(CORRELATION_WINDOW_DAYS - 1)), today)).series
    const results = this.compute(series, today)
    await this.store.replacePatterns(userId, results, this.clock.now())
    return results
  }

  /** All four patterns the series give on `today` (insufficient ones included). */
  compute(series: MetricSeries, today: string): PatternResult[] {
    return computePatterns(series, today)
  }

  /** POST /patterns/detect: pattern name → significance. */
  async detectFor(externalId: string): Promise<Record<PatternName, Significance>> {
    const user = await this.users.refOrFail(externalId)
    const results = await this.detect(user.id)
    return Object.fromEntries(results.map((p) => [p.patternName, p.significance])) as Record<PatternName, Significance>
  }

  /** Stored patterns in name order (empty before the first detection). */
  async list(externalId: string): Promise<Pattern[]> {
    const user = await this.users.refOrFail(externalId)
    return this.store.patterns(user.id)
  }

  /** One stored pattern; 404 for an unknown name or when it has not been detected yet. */
  async show(externalId: string, name: string): Promise<Pattern> {
    const user = await this.users.refOrFail(externalId)
    if (!isPatternName(name)) throw new UnknownPatternException(name)
    const pattern = await this.store.pattern(user.id, name)
    if (!pattern) throw new PatternNotFoundException(name)
    return pattern
  }
}

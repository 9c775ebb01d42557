import { inject } from '@adonisjs/core'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { buildInsights, INSIGHTS_WINDOW_DAYS, type Insights } from '#services/analytics/insights_builder'
import { shiftDate } from '#services/analytics/metrics'

/** The unified insights record plus who and when. */
export interface UserInsights extends Insights {
  userId: string
  generatedAt: string
  dataFreshness: string | null
}

/**
 * GET /insights (DESIGN §4). Computed from the stored history at request time with the same
 * calculators as the stored baselines and patterns, so it is never staler than the data: the
 * series of the calculators' window plus the number of days with data over all history.
 */
@inject()
export class InsightsService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected loader: SeriesLoader
  ) {}

  async insights(externalId: string): Promise<UserInsights> {
    const user = await this.users.refOrFail(externalId)
    const today = this.clock.today()
    const todayIso = today.toISODate()!
    // The calculators' window of series and one aggregate over all history: the same insights at
    // a cost that does not grow with the years stored.
    const loaded = await this.loader.load(user.id, shiftDate(todayIso, -(INSIGHTS_WINDOW_DAYS - 1)), todayIso)
    const history = await this.loader.dataHistory(user.id, todayIso)
    const insights = buildInsights(loaded.series, history, todayIso)
    return {
      userId: user.externalId,
      generatedAt: this.clock.now().toUTC().toISO()!,
      // The start of the latest day with sleep or recharge data, in APP_TIMEZONE, as UTC.
      dataFreshness:
        insights.latestDataDate === null
          ? null
          : today.set(dateParts(insights.latestDataDate)).startOf('day').toUTC().toISO()!,
      ...insights,
    }
  }
}

function dateParts(iso: string) {
  const [year, month, day] = iso.split('-').map(Number)
  return { year, month, day }
}

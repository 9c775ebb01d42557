import { inject } from '@adonisjs/core'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { buildInsights, type Insights } from '#services/analytics/insights_builder'

/** The unified insights record plus who and when. */
export interface UserInsights extends Insights {
  userId: string
  generatedAt: string
  dataFreshness: string | null
}

/**
 * GET /insights (DESIGN §4). Computed from the stored history at request time with the same
 * calculators as the stored baselines and patterns, so it is never staler than the data.
 */
@inject()
export class InsightsService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected loader: SeriesLoader
  ) {}

  async insights(externalId: string): Promise<UserInsights> {
    const user = await this.users.findOrFail(externalId)
    const today = this.clock.today()
    const loaded = await this.loader.load(user.id, null, today.toISODate()!)
    const dates = new Set([...loaded.sleepDates, ...loaded.rechargeDates])
    const insights = buildInsights(loaded.series, dates, today.toISODate()!)
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

import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import UnknownUserException from '#exceptions/unknown_user_exception'
import InsightsTransformer from '#transformers/insights_transformer'
import { ClockService } from '#services/clock_service'
import { codeDigest } from '#services/code_digest'
import { HotQueries } from '#services/hot_queries'
import { UserService, type UserRef } from '#services/user_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { buildInsights, INSIGHTS_WINDOW_DAYS, type Insights } from '#services/analytics/insights_builder'
import { shiftDate } from '#services/analytics/metrics'

/** The unified insights record plus who and when. */
export interface UserInsights extends Insights {
  userId: string
  generatedAt: string
  dataFreshness: string | null
}

export const INSIGHTS_SNAPSHOTS_TABLE = 'insights_snapshots'

/**
 * The user's ids and data version, with the stored insights answer when it was computed from that
 * version in the same context: one indexed read.
 */
const SNAPSHOT_SQL =
  'select u.id as "id", u.external_id as "externalId", u.data_version as "version", s.body as "body" from users u ' +
  `left join ${INSIGHTS_SNAPSHOTS_TABLE} s on s.user_id = u.id and s.data_version = u.data_version and s.context = ? ` +
  'where u.external_id = ? limit 1'

type SnapshotRow = UserRef & { version: number | string; body: string | null }

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
    return this.insightsOf(await this.users.refOrFail(externalId))
  }

  /**
   * The insights answer as its JSON text. Insights are a function of the user's stored data, the
   * day and the time zone (and of the code that computes them), so the answer computed last is
   * stored with the data version and that context and served again while all of them are
   * unchanged: every write of the user's data bumps the version, a new day or zone or any change
   * of the application's code (codeDigest) changes the context. Else it is computed now and
   * stored under the version read before the data was, so a write committed meanwhile makes it
   * stale at once. `generated_at` says when the answer was computed, as for a cached answer.
   */
  async insightsJson(externalId: string): Promise<string> {
    const context = `${this.clock.todayIso()} ${this.clock.zone} ${codeDigest()}`
    const row = await HotQueries.first<SnapshotRow>(SNAPSHOT_SQL, [context, externalId])
    if (!row) throw new UnknownUserException(externalId)
    if (row.body !== null) return row.body
    const body = JSON.stringify(new InsightsTransformer(await this.insightsOf(row)).toObject())
    await db
      .knexQuery()
      .table(INSIGHTS_SNAPSHOTS_TABLE)
      .insert({ user_id: row.id, data_version: row.version, context, body })
      .onConflict('user_id')
      .merge(['data_version', 'context', 'body'])
    return body
  }

  protected async insightsOf(user: UserRef): Promise<UserInsights> {
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

import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { DateTime } from 'luxon'
import SyncRun from '#models/sync_run'
import type User from '#models/user'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'
import { InsightsService } from '#services/analytics/insights_service'
import { METRIC_NAMES, type MetricName } from '#services/analytics/metrics'
import type { AnomalyResult } from '#services/analytics/anomaly_calculator'
import type { BaselineResult } from '#services/analytics/baseline_calculator'
import type { Insights } from '#services/analytics/insights_builder'
import type { Observation } from '#services/analytics/observations'
import type { Suggestion } from '#services/analytics/suggestions'
import { DATA_TYPES, type DataTypeKey } from '#services/records/data_types'
import { SleepService, type SleepListRecord, type SleepNight } from '#services/records/sleep_service'
import { RechargeService, type RechargeListRecord } from '#services/records/recharge_service'
import { ActivityService, type ActivityListRecord } from '#services/records/activity_service'

/** One metric's baseline as the today view shows it. */
export interface TodayBaseline {
  /** `insufficient` also when the metric has no value at all yet. */
  status: BaselineResult['status']
  current: number | null
  baseline: number | null
  percentOfBaseline: number | null
  trend: string | null
}

/**
 * `no_data`: nothing is stored for the user yet; otherwise the insights status (`unavailable`
 * under 7 days of sleep or recharge data, `partial` 7–20, `ready` from 21).
 */
export type TodayStatus = 'no_data' | Insights['status']

/** The compact "today" view of a user, before serialisation. */
export interface TodayView {
  userId: string
  date: string
  generatedAt: string
  status: TodayStatus
  /** The night that ended today (the wake-up date), null until it is synced. */
  sleep: SleepNight<SleepListRecord> | null
  recharge: RechargeListRecord | null
  /** Today's activity so far (as of the last sync). */
  activity: ActivityListRecord | null
  currentMetrics: Insights['currentMetrics']
  baselines: Record<MetricName, TodayBaseline>
  anomalies: AnomalyResult[]
  topObservation: Observation | null
  topSuggestion: Suggestion | null
  lastSyncedAt: DateTime | null
  lastSync: SyncRun | null
  /** The newest date with data, per catalogued type (null: none stored). */
  newestData: Record<DataTypeKey, string | null>
}

/**
 * GET /users/{user_id}/today: a small answer for a dashboard or a morning check, built from the
 * same services as the lists and /insights (the night dated today with its recharge, today's
 * activity, the insights' current values, baselines, anomalies, first observation and suggestion)
 * plus how fresh the data is. A user without data gets the same shape with nulls and `no_data`.
 */
@inject()
export class TodayService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected insights: InsightsService,
    protected sleep: SleepService,
    protected recharge: RechargeService,
    protected activity: ActivityService
  ) {}

  async today(externalId: string): Promise<TodayView> {
    const user = await this.users.findOrFail(externalId)
    const date = this.clock.today().toISODate()!
    const today = { from: date, to: date }
    const [night] = await this.sleep.listRecent(externalId, today)
    const [recharge] = await this.recharge.listRecent(externalId, today)
    const [activity] = await this.activity.listRecent(externalId, today)
    const insights = await this.insights.insights(externalId)
    const newestData = await this.newestData(user)
    const lastSync = await SyncRun.query().where('userId', user.id).orderBy('id', 'desc').first()

    const baselines = {} as Record<MetricName, TodayBaseline>
    for (const metric of METRIC_NAMES) {
      const b = insights.baselines[metric]
      baselines[metric] = b
        ? { status: b.status, current: b.current, baseline: b.baseline, percentOfBaseline: b.percentOfBaseline, trend: b.trend }
        : { status: 'insufficient', current: null, baseline: null, percentOfBaseline: null, trend: null }
    }
    const hasData = Object.values(newestData).some((newest) => newest !== null)
    return {
      userId: user.externalId,
      date,
      generatedAt: insights.generatedAt,
      status: hasData ? insights.status : 'no_data',
      sleep: night ?? null,
      recharge: recharge ?? null,
      activity: activity ?? null,
      currentMetrics: insights.currentMetrics,
      baselines,
      anomalies: insights.anomalies,
      topObservation: insights.observations[0] ?? null,
      topSuggestion: insights.suggestions[0] ?? null,
      lastSyncedAt: user.lastSyncedAt ?? null,
      lastSync,
      newestData,
    }
  }

  /** The newest date per catalogued type, in one UNION ALL of indexed maxima. */
  protected async newestData(user: User): Promise<Record<DataTypeKey, string | null>> {
    const maxima = DATA_TYPES.map((type) =>
      db
        .from(type.table)
        .where('user_id', user.id)
        .select(db.raw('CAST(? AS VARCHAR(32)) AS type', [type.key]))
        .max(`${type.dateColumn} as newest`)
    )
    const rows = (await maxima[0].unionAll(maxima.slice(1))) as Array<{ type: string; newest: unknown }>
    const byType = new Map(rows.map((row) => [String(row.type), row.newest === null ? null : String(row.newest)]))
    return Object.fromEntries(DATA_TYPES.map((type) => [type.key, byType.get(type.key) ?? null])) as Record<DataTypeKey, string | null>
  }
}

import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import DailyActivity from '#models/daily_activity'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { ClockService } from '#services/clock_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { AnalyticsStore } from '#services/analytics/analytics_store'
import { InsightsService } from '#services/analytics/insights_service'
import { checkValue } from '#services/analytics/anomaly_calculator'
import type { MetricName } from '#services/analytics/metrics'
import type { UserInsights } from '#services/analytics/insights_service'

/** The five charts of the overview, in display order. */
export const CHARTS = [
  { key: 'hrv_rmssd', label: 'HRV (RMSSD)', unit: 'ms', metric: 'hrv_rmssd' },
  { key: 'sleep_score', label: 'Sleep score', unit: '', metric: 'sleep_score' },
  { key: 'resting_hr', label: 'Resting heart rate', unit: 'bpm', metric: 'resting_hr' },
  { key: 'training_load', label: 'Training load', unit: '', metric: 'training_load' },
  { key: 'steps', label: 'Steps', unit: '', metric: null },
] as const

export interface ChartPoint {
  date: string
  value: number
  /** Set when the value lies outside the metric's IQR fences. */
  anomaly: 'warning' | 'critical' | null
}

export interface ChartData {
  key: string
  label: string
  unit: string
  points: ChartPoint[]
  /** The normal range: q1–q3 (band) and the fences (q1 − 1.5·IQR, q3 + 1.5·IQR). */
  baseline: {
    value: number
    q1: number | null
    q3: number | null
    lower: number | null
    upper: number | null
    status: string
    samples: number
  } | null
}

/** One user's overview over `days` calendar days ending today (`from` … `to`). */
export interface OverviewData {
  user: User
  days: number
  from: string
  to: string
  charts: ChartData[]
  insights: UserInsights
  lastRun: SyncRun | null
  /** Days with sleep, recharge, activity or cardio-load data, whichever type has most. */
  recordDays: number
}

/** The overview page of one user: chart series with baselines and anomalies, insights, sync state. */
@inject()
export class OverviewService {
  constructor(
    protected clock: ClockService,
    protected loader: SeriesLoader,
    protected store: AnalyticsStore,
    protected insightsService: InsightsService
  ) {}

  async forUser(user: User, days: number): Promise<OverviewData> {
    const { from, to } = this.clock.window(days)
    const [loaded, baselines, steps, insights, lastRun, dataDays] = await Promise.all([
      this.loader.load(user.id, from, to),
      this.store.baselines(user.id),
      this.steps(user.id, from, to),
      this.insightsService.insights(user.externalId),
      SyncRun.query().where('userId', user.id).orderBy('id', 'desc').first(),
      this.loader.dataDays(user.id),
    ])
    const byMetric = new Map(baselines.map((b) => [b.metricName, b]))
    const charts: ChartData[] = CHARTS.map((chart) => {
      if (chart.metric === null) {
        return { key: chart.key, label: chart.label, unit: chart.unit, points: steps, baseline: null }
      }
      const baseline = byMetric.get(chart.metric as MetricName) ?? null
      const points = loaded.series[chart.metric as MetricName].map(({ date, value }) => ({
        date,
        value,
        anomaly: baseline ? checkValue(value, baseline).severity : null,
      }))
      return {
        key: chart.key,
        label: chart.label,
        unit: chart.unit,
        points,
        baseline: baseline
          ? {
              value: baseline.baselineValue,
              q1: baseline.q1,
              q3: baseline.q3,
              lower: baseline.lowerBound,
              upper: baseline.upperBound,
              status: baseline.status,
              samples: baseline.sampleCount,
            }
          : null,
      }
    })
    return {
      user,
      days,
      from,
      to,
      charts,
      insights,
      lastRun,
      recordDays: Math.max(dataDays.sleep, dataDays.recharge, dataDays.activity, dataDays.cardio_load),
    }
  }

  /** The user to show: the requested one, else the most recently synced, else the first. */
  async pickUser(requested: string | undefined): Promise<{ user: User | null; users: User[] }> {
    const users = await User.query().orderBy('externalId', 'asc')
    if (requested) return { user: users.find((u) => u.externalId === requested) ?? null, users }
    const synced = [...users].sort(
      (a, b) => (b.lastSyncedAt?.toMillis() ?? 0) - (a.lastSyncedAt?.toMillis() ?? 0)
    )
    return { user: synced[0] ?? null, users }
  }

  protected async steps(userId: number, from: string, to: string): Promise<ChartPoint[]> {
    const rows = (await db
      .from(DailyActivity.table)
      .select('date', 'steps')
      .where('user_id', userId)
      .whereBetween('date', [from, to])
      .whereNotNull('steps')
      .orderBy('date', 'asc')) as Array<{ date: string; steps: number | string }>
    return rows.map((row) => ({ date: String(row.date), value: Number(row.steps), anomaly: null }))
  }
}

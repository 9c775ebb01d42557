import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import CardioLoad from '#models/cardio_load'
import DailyActivity from '#models/daily_activity'
import SleepRecord from '#models/sleep_record'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { ClockService } from '#services/clock_service'
import { SeriesLoader } from '#services/analytics/series_loader'
import { AnalyticsStore } from '#services/analytics/analytics_store'
import { InsightsService } from '#services/analytics/insights_service'
import { checkValue } from '#services/analytics/anomaly_calculator'
import { latestWithin, METRIC_LABELS, shiftDate, type MetricName } from '#services/analytics/metrics'
import type { UserInsights } from '#services/analytics/insights_service'
import { totalSleepSeconds } from '#services/records/units'
import { buildTiles, TILE_METRICS, type OverviewTile, type TileMetric } from '#services/admin/overview_tiles'

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

/** An anomalous day of a chart, explained. */
export interface AnomalyNote {
  date: string
  value: number
  severity: 'warning' | 'critical'
  direction: 'below' | 'above'
  /** "12 ms, far below the usual 40–52 ms". */
  text: string
}

export interface ChartData {
  key: string
  label: string
  unit: string
  points: ChartPoint[]
  /** The anomalous days of `points`, newest first. */
  anomalies: AnomalyNote[]
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

/** The days the overview shows: a preset ending today, or a custom `from` … `to` (inclusive). */
export interface OverviewRange {
  from: string
  to: string
  days: number
  custom: boolean
}

/** How current the data is: the latest night stored and when the user last synced. */
export interface Freshness {
  today: string
  /** The server's "now" (ISO), so the page can say "3 min ago" whatever the browser's clock. */
  now: string
  latestNight: string | null
  lastSyncedAt: string | null
}

/** One user's overview over a range of calendar days (`from` … `to`). */
export interface OverviewData {
  user: User
  range: OverviewRange
  charts: ChartData[]
  tiles: OverviewTile[]
  freshness: Freshness
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

  /** The range asked for: `from`/`to` when both are given, else the preset `days` ending today. */
  range(query: { days?: number; from?: string; to?: string }): OverviewRange {
    if (query.from && query.to) {
      const days = Math.round((Date.parse(query.to) - Date.parse(query.from)) / 86_400_000) + 1
      return { from: query.from, to: query.to, days, custom: true }
    }
    const days = query.days ?? 30
    return { ...this.clock.window(days), days, custom: false }
  }

  async forUser(user: User, range: OverviewRange): Promise<OverviewData> {
    const { from, to } = range
    const today = this.clock.today().toISODate()!
    // Sequential on purpose: inside a transaction all queries share one connection.
    const loaded = await this.loader.load(user.id, from, to)
    const recent = await this.loader.load(user.id, shiftDate(today, -29), today)
    const baselines = await this.store.baselines(user.id)
    const steps = await this.steps(user.id, from, to)
    const insights = await this.insightsService.insights(user.externalId)
    const lastRun = await SyncRun.query().where('userId', user.id).orderBy('id', 'desc').first()
    const dataDays = await this.loader.dataDays(user.id)
    const lastNight = await SleepRecord.query().where('userId', user.id).where('date', '<=', today).orderBy('date', 'desc').first()
    const lastCardio = await CardioLoad.query().where('userId', user.id).where('date', '<=', today).orderBy('date', 'desc').first()

    const byMetric = new Map(baselines.map((b) => [b.metricName, b]))
    const charts: ChartData[] = CHARTS.map((chart) => {
      if (chart.metric === null) {
        return { key: chart.key, label: chart.label, unit: chart.unit, points: steps, anomalies: [], baseline: null }
      }
      const metric = chart.metric as MetricName
      const baseline = byMetric.get(metric) ?? null
      const points = loaded.series[metric].map(({ date, value }) => ({
        date,
        value,
        anomaly: baseline ? checkValue(value, baseline).severity : null,
      }))
      return {
        key: chart.key,
        label: chart.label,
        unit: chart.unit,
        points,
        anomalies: baseline ? anomalyNotes(metric, points, baseline) : [],
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

    const latest = {} as Record<TileMetric, ReturnType<typeof latestWithin>>
    for (const metric of TILE_METRICS) latest[metric] = latestWithin(recent.series[metric], today, 30)
    const sleepOfTile = lastNight && lastNight.date === latest.sleep_score?.date ? lastNight : null
    const tiles = buildTiles({
      latest,
      baselines: byMetric,
      insightBaselines: insights.baselines,
      sleepSeconds: sleepOfTile
        ? totalSleepSeconds(sleepOfTile.lightSleepSeconds, sleepOfTile.deepSleepSeconds, sleepOfTile.remSleepSeconds)
        : null,
      cardioStatus: lastCardio && lastCardio.date === latest.training_load_ratio?.date ? lastCardio.cardioLoadStatus : null,
    })

    return {
      user,
      range,
      charts,
      tiles,
      freshness: {
        today,
        now: this.clock.now().toUTC().toISO()!,
        latestNight: insights.latestDataDate,
        lastSyncedAt: user.lastSyncedAt?.toUTC().toISO() ?? null,
      },
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

/** The anomalous points of a chart, newest first, each explained against the normal range. */
function anomalyNotes(
  metric: MetricName,
  points: ChartPoint[],
  baseline: { baselineValue: number; q1: number | null; q3: number | null }
): AnomalyNote[] {
  const { digits, unit } = METRIC_LABELS[metric]
  const notes: AnomalyNote[] = []
  for (const point of points) {
    if (point.anomaly === null || baseline.q1 === null || baseline.q3 === null) continue
    const direction = point.value < baseline.q1 ? 'below' : 'above'
    const range = `${baseline.q1.toFixed(digits)}–${baseline.q3.toFixed(digits)}${unit}`
    const how = point.anomaly === 'critical' ? `far ${direction}` : direction
    notes.push({
      date: point.date,
      value: point.value,
      severity: point.anomaly,
      direction,
      text: `${point.value.toFixed(digits)}${unit}, ${how} the usual ${range}`,
    })
  }
  return notes.reverse()
}

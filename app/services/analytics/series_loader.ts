import db from '@adonisjs/lucid/services/db'
import type { LucidModel } from '@adonisjs/lucid/types/model'
import CardioLoad from '#models/cardio_load'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import { emptySeries, type MetricSeries } from '#services/analytics/metrics'
import type { DataHistory } from '#services/analytics/insights_builder'
import { columnOf, type AttributeOf } from '#services/records/columns'
import { HotQueries } from '#services/hot_queries'
import { dataType, type DataTypeKey } from '#services/records/data_types'

/** The metric series of one user plus the dates that have a row in each source. */
export interface LoadedSeries {
  series: MetricSeries
  sleepDates: string[]
  rechargeDates: string[]
}

/** The data types whose stored days the analytics status reports (`data_days`), in its order. */
const DATA_DAYS_TYPES = ['sleep', 'recharge', 'activity', 'cardio_load'] as const satisfies readonly DataTypeKey[]

/** Days with a row per source, all time (analytics status `data_days`). */
export type DataDays = Record<(typeof DATA_DAYS_TYPES)[number], number>

type Row = Record<string, unknown>

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : null
}

/**
 * Reads the analytics source series (DESIGN §4): one query per source table per user, each a
 * single ordered scan of the user's rows read as plain rows (no model hydration), so the cost is
 * linear in stored history. hrv_rmssd and resting_hr come from nightly recharge, sleep_score from
 * sleep, training_load and training_load_ratio from cardio load. Nulls are skipped; a real 0 is kept.
 */
const scans = new Map<string, string>()

let historyQuery: string | undefined
function historySql(): string {
  const dates = [SleepRecord, NightlyRecharge].map(
    (model) =>
      `select ${columnOf(model, 'date')} as d from ${model.table} where ${columnOf(model, 'userId')} = ? and ${columnOf(model, 'date')} <= ?`
  )
  return (historyQuery ??= `select count(*) as "days", max(d) as "latest" from (${dates.join(' union ')}) dated`)
}

/** The scan of a source as SQL (built once per source and shape): attributes under their own names, oldest first. */
function scanSql<Model extends LucidModel>(model: Model, attributes: AttributeOf<Model>[], bounded: boolean): string {
  const key = `${model.table}|${attributes.join(',')}|${bounded}`
  let sql = scans.get(key)
  if (!sql) {
    const date = columnOf(model, 'date' as AttributeOf<Model>)
    const columns = attributes.map((a) => `${columnOf(model, a)} as "${a}"`).join(', ')
    sql =
      `select ${columns} from ${model.table} where ${columnOf(model, 'userId' as AttributeOf<Model>)} = ? and ${date} <= ?` +
      `${bounded ? ` and ${date} >= ?` : ''} order by ${date} asc`
    scans.set(key, sql)
  }
  return sql
}

export class SeriesLoader {
  /** Series dated `from` … `to` (ISO dates); `from` null reads all history up to `to`. */
  async load(userId: number, from: string | null, to: string): Promise<LoadedSeries> {
    // Prepared statements on the driver (HotQueries): the request-time insights read every source.
    const scan = <Model extends LucidModel>(model: Model, attributes: AttributeOf<Model>[]) =>
      HotQueries.scan<Row>(scanSql(model, attributes, from !== null), from === null ? [userId, to] : [userId, to, from])
    // Sequential on purpose: inside a transaction all queries share one connection.
    const recharge = await scan(NightlyRecharge, ['date', 'hrvAvg', 'heartRateAvg'])
    const sleep = await scan(SleepRecord, ['date', 'sleepScore'])
    const cardio = await scan(CardioLoad, ['date', 'cardioLoad', 'cardioLoadRatio'])
    const series = emptySeries()
    const push = (metric: keyof MetricSeries, date: string, raw: unknown) => {
      const value = toNumber(raw)
      if (value !== null) series[metric].push({ date, value })
    }
    for (const r of recharge) {
      push('hrv_rmssd', String(r.date), r.hrvAvg)
      push('resting_hr', String(r.date), r.heartRateAvg)
    }
    for (const r of sleep) push('sleep_score', String(r.date), r.sleepScore)
    for (const r of cardio) {
      push('training_load', String(r.date), r.cardioLoad)
      push('training_load_ratio', String(r.date), r.cardioLoadRatio)
    }
    return {
      series,
      sleepDates: sleep.map((r) => String(r.date)),
      rechargeDates: recharge.map((r) => String(r.date)),
    }
  }

  /**
   * Days with a sleep or recharge row up to `to` over all history (a date in both counts once) and
   * the latest of them: the insights' data age, from the (user, date) indexes alone.
   */
  async dataHistory(userId: number, to: string): Promise<DataHistory> {
    const [row] = await HotQueries.scan<{ days: number | string; latest: string | null }>(historySql(), [userId, to, userId, to])
    return { days: Number(row?.days ?? 0), latest: row?.latest ?? null }
  }

  /** Days with a stored row per source, all time (rows are unique per user and date). */
  async dataDays(userId: number): Promise<DataDays> {
    const days = {} as DataDays
    // Sequential on purpose, as above.
    for (const key of DATA_DAYS_TYPES) {
      const row = (await db.from(dataType(key).table).where('user_id', userId).count('* as n').first()) as Row | null
      days[key] = toNumber(row?.n) ?? 0
    }
    return days
  }
}

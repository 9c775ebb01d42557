import db from '@adonisjs/lucid/services/db'
import { emptySeries, type MetricSeries } from '#services/analytics/metrics'

/** The metric series of one user plus the dates that have a row in each source. */
export interface LoadedSeries {
  series: MetricSeries
  sleepDates: string[]
  rechargeDates: string[]
}

/** Days with a row per source, all time (analytics status `data_days`). */
export interface DataDays {
  sleep: number
  recharge: number
  activity: number
  cardio_load: number
}

type Row = Record<string, unknown>

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : null
}

/**
 * Reads the analytics source series (DESIGN §4): one query per source table per user, each a
 * single ordered scan of the user's rows, so the cost is linear in stored history.
 * hrv_rmssd and resting_hr come from nightly recharge, sleep_score from sleep, training_load
 * and training_load_ratio from cardio load. Nulls are skipped; a real 0 is kept.
 */
export class SeriesLoader {
  /** Series dated `from` … `to` (ISO dates); `from` null reads all history up to `to`. */
  async load(userId: number, from: string | null, to: string): Promise<LoadedSeries> {
    const scan = (table: string, columns: string[]) => {
      const q = db.from(table).select(['date', ...columns]).where('user_id', userId).where('date', '<=', to)
      if (from !== null) q.where('date', '>=', from)
      return q.orderBy('date', 'asc') as unknown as Promise<Row[]>
    }
    // Sequential on purpose: inside a transaction all queries share one connection.
    const recharge = await scan('nightly_recharges', ['hrv_avg', 'heart_rate_avg'])
    const sleep = await scan('sleep_records', ['sleep_score'])
    const cardio = await scan('cardio_loads', ['cardio_load', 'cardio_load_ratio'])
    const series = emptySeries()
    const push = (metric: keyof MetricSeries, date: string, raw: unknown) => {
      const value = toNumber(raw)
      if (value !== null) series[metric].push({ date, value })
    }
    for (const r of recharge) {
      push('hrv_rmssd', String(r.date), r.hrv_avg)
      push('resting_hr', String(r.date), r.heart_rate_avg)
    }
    for (const r of sleep) push('sleep_score', String(r.date), r.sleep_score)
    for (const r of cardio) {
      push('training_load', String(r.date), r.cardio_load)
      push('training_load_ratio', String(r.date), r.cardio_load_ratio)
    }
    return {
      series,
      sleepDates: sleep.map((r) => String(r.date)),
      rechargeDates: recharge.map((r) => String(r.date)),
    }
  }

  /** Days with a stored row per source, all time (rows are unique per user and date). */
  async dataDays(userId: number): Promise<DataDays> {
    const count = async (table: string) => {
      const row = (await db.from(table).where('user_id', userId).count('* as n').first()) as Row | null
      return toNumber(row?.n) ?? 0
    }
    return {
      sleep: await count('sleep_records'),
      recharge: await count('nightly_recharges'),
      activity: await count('daily_activities'),
      cardio_load: await count('cardio_loads'),
    }
  }
}

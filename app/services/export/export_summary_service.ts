import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { RecordWindowService } from '#services/records/record_window'

/** Record counts per exported series, keyed as the spec's `record_counts`. */
export interface ExportCounts {
  sleep: number
  activity: number
  recharge: number
  cardio_load: number
  heart_rate: number
  exercises: number
}

/** What an export of the last `days` calendar days holds. */
export interface ExportSummary {
  userId: string
  days: number
  from: string
  to: string
  counts: ExportCounts
}

interface CountRow {
  series: string
  total: number | string
}

/** Table and date column of each counted series. */
const SERIES: Record<keyof ExportCounts, [table: string, dateColumn: string]> = {
  sleep: ['sleep_records', 'date'],
  activity: ['daily_activities', 'date'],
  recharge: ['nightly_recharges', 'date'],
  cardio_load: ['cardio_loads', 'date'],
  heart_rate: ['heart_rate_days', 'date'],
  exercises: ['exercises', 'start_date'],
}

@inject()
export class ExportSummaryService {
  constructor(protected windows: RecordWindowService) {}

  /**
   * Counts of the six exported series in the window, in one UNION ALL of
   * indexed counts; UnknownUserException (404) for an unknown user.
   */
  async summarize(userId: string, days: number): Promise<ExportSummary> {
    const { user, from, to } = await this.windows.open(userId, days)
    const counts = (Object.keys(SERIES) as Array<keyof ExportCounts>).map((series) => {
      const [table, column] = SERIES[series]
      return db
        .from(table)
        .where('user_id', user.id)
        .whereBetween(column, [from, to])
        .select(db.raw('CAST(? AS VARCHAR(16)) AS series', [series]))
        .count('* as total')
    })
    const rows = (await counts[0].unionAll(counts.slice(1))) as CountRow[]
    const totals = new Map(rows.map((row) => [String(row.series), Number(row.total)]))
    const result = Object.fromEntries(Object.keys(SERIES).map((series) => [series, totals.get(series) ?? 0]))
    return { userId: user.externalId, days, from, to, counts: result as unknown as ExportCounts }
  }
}

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

  /** Counts of the six exported series in the window (one count query each); 404 for an unknown user. */
  async summarize(userId: string, days: number): Promise<ExportSummary> {
    const { user, from, to } = await this.windows.open(userId, days)
    const entries = await Promise.all(
      Object.entries(SERIES).map(async ([key, [table, column]]) => {
        const row = await db
          .from(table)
          .where('user_id', user.id)
          .whereBetween(column, [from, to])
          .count('* as total')
          .first()
        return [key, Number(row?.total ?? 0)] as const
      })
    )
    return { userId: user.externalId, days, from, to, counts: Object.fromEntries(entries) as unknown as ExportCounts }
  }
}

import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { dataType, type DataTypeKey } from '#services/records/data_types'
import { DateTime } from 'luxon'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'

/** The data types an export counts, in the order of the spec's `record_counts`. */
const EXPORTED_TYPES = [
  'sleep',
  'activity',
  'recharge',
  'cardio_load',
  'heart_rate',
  'exercises',
] as const satisfies readonly DataTypeKey[]

/** Record counts per exported series, keyed as the spec's `record_counts`. */
export type ExportCounts = Record<(typeof EXPORTED_TYPES)[number], number>

/** What an export of the window holds; `days` counts its calendar days (a `from`/`to` range too). */
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

@inject()
export class ExportSummaryService {
  constructor(protected windows: RecordWindowService) {}

  /**
   * Counts of the six exported series in the window, in one UNION ALL of
   * indexed counts; UnknownUserException (404) for an unknown user.
   */
  async summarize(userId: string, window: WindowInput): Promise<ExportSummary> {
    const { user, from, to } = await this.windows.open(userId, window)
    const days = Math.max(0, Math.round(DateTime.fromISO(to).diff(DateTime.fromISO(from), 'days').days) + 1)
    // Each catalogued type's table, counted by its date column.
    const counts = EXPORTED_TYPES.map((series) => {
      const { table, dateColumn } = dataType(series)
      return db
        .from(table)
        .where('user_id', user.id)
        .whereBetween(dateColumn, [from, to])
        .select(db.raw('CAST(? AS VARCHAR(16)) AS series', [series]))
        .count('* as total')
    })
    const rows = (await counts[0].unionAll(counts.slice(1))) as CountRow[]
    const totals = new Map(rows.map((row) => [String(row.series), Number(row.total)]))
    const result = Object.fromEntries(EXPORTED_TYPES.map((series) => [series, totals.get(series) ?? 0]))
    return { userId: user.externalId, days, from, to, counts: result as ExportCounts }
  }
}

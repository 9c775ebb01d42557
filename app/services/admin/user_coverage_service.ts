import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import { ClockService } from '#services/clock_service'
import { DATA_TYPES, type DataTypeKey } from '#services/records/data_types'

/** Days with data of one data type: date → records stored for that date (only dates with data). */
export interface CoverageSource {
  key: DataTypeKey
  label: string
  counts: Record<string, number>
  /** Dates with at least one record in the window. */
  daysWithData: number
}

/** What the per-user page's calendar heat-map draws: a window of calendar days and, per type, its days with data. */
export interface UserCoverage {
  from: string
  to: string
  days: number
  sources: CoverageSource[]
}

/** The window of the heat-map: a year of calendar days ending today. */
export const COVERAGE_DAYS = 365

/**
 * Data coverage of one user: for every catalogue type, how many records are stored per local
 * calendar date (the type's date column, the one `days=N` windows count by) over the `days`
 * calendar days ending today in APP_TIMEZONE. One grouped query per type, never one per day.
 */
@inject()
export class UserCoverageService {
  constructor(protected clock: ClockService) {}

  async forUser(user: User, days = COVERAGE_DAYS): Promise<UserCoverage> {
    const { from, to } = this.clock.window(days)
    const sources: CoverageSource[] = []
    for (const type of DATA_TYPES) {
      const rows = (await db
        .from(type.table)
        .where('user_id', user.id)
        .whereBetween(type.dateColumn, [from, to])
        .groupBy(type.dateColumn)
        .select(`${type.dateColumn} as day`)
        .count('* as n')) as Array<{ day: unknown; n: unknown }>
      const counts: Record<string, number> = {}
      for (const row of rows.map((r) => ({ day: String(r.day), n: Number(r.n) })).sort((a, b) => a.day.localeCompare(b.day))) {
        counts[row.day] = row.n
      }
      sources.push({ key: type.key, label: type.label, counts, daysWithData: rows.length })
    }
    return { from, to, days, sources }
  }
}

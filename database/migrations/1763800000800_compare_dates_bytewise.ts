import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * PostgreSQL only: the per-day tables' ISO dates (and the sleep months' keys) compare as bytes
 * (`COLLATE "C"`), as SQLite compares them. An ISO date sorts the same under any collation, but a
 * linguistic one (the database default, often `C.UTF-8` or `en_US.UTF-8`) pays `strcoll` for every
 * comparison of an index scan over a window of days: 5–7 % of the uncached year of sleep's
 * statement (profile note, "Twenty-first look"). Comparisons with a parameter or with a column of
 * the default collation take this column's collation, so no query changes. The indexes on these
 * columns are rebuilt; the tables are not rewritten.
 */
const COLUMNS: Array<[table: string, column: string, length: number]> = [
  ['sleep_records', 'date', 10],
  ['nightly_recharges', 'date', 10],
  ['daily_activities', 'date', 10],
  ['cardio_loads', 'date', 10],
  ['heart_rate_days', 'date', 10],
  ['physical_infos', 'date', 10],
  ['activity_samples', 'date', 10],
  ['sleep_list_lines', 'date', 10],
  ['sleep_list_months', 'month', 7],
]

export default class extends BaseSchema {
  async up() {
    this.alter('"C"')
  }

  async down() {
    this.alter('"default"')
  }

  protected alter(collation: string) {
    if (this.db.dialect.name !== 'postgres') return
    for (const [table, column, length] of COLUMNS) {
      this.schema.raw(`alter table ${table} alter column "${column}" type varchar(${length}) collate ${collation}`)
    }
  }
}

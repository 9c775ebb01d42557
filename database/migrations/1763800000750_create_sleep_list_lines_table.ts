import { BaseSchema } from '@adonisjs/lucid/schema'
import { SLEEP_LINES_TABLE, sleepLineTriggers } from '#services/records/sleep_lines'

/**
 * The rendered lines of each night (SleepLines): its sleep-list item as JSON and its sleep.csv
 * row, keyed by user and date so a window is one range of the key. On SQLite the table is
 * clustered on that key (WITHOUT ROWID): a year of lines is a few adjacent pages. Triggers on the
 * two source tables drop the lines of any row a write touches. The table starts empty: a read
 * renders its window's lines when it finds fewer than nights.
 */
export default class extends BaseSchema {
  protected tableName = SLEEP_LINES_TABLE

  async up() {
    const postgres = this.db.dialect.name === 'postgres'
    if (postgres) {
      this.schema.createTable(this.tableName, (table) => {
        table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
        table.string('date', 10).notNullable()
        table.text('json').notNullable()
        table.text('csv').notNullable()
        table.primary(['user_id', 'date'])
      })
    } else {
      this.schema.raw(
        `create table ${this.tableName} (user_id integer not null references users (id) on delete cascade, ` +
          `date varchar(10) not null, json text not null, csv text not null, primary key (user_id, date)) without rowid`
      )
    }
    for (const sql of sleepLineTriggers(postgres ? 'postgres' : 'sqlite').create) this.schema.raw(sql)
  }

  async down() {
    // The triggers live on the source tables: dropped by name.
    for (const sql of sleepLineTriggers(this.db.dialect.name === 'postgres' ? 'postgres' : 'sqlite').drop) this.schema.raw(sql)
    this.schema.dropTable(this.tableName)
  }
}

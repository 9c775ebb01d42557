import { BaseSchema } from '@adonisjs/lucid/schema'
import { FILL_SLEEP_MONTHS_SQL, SLEEP_MONTHS_TABLE, sleepMonthTriggerFunctions } from '#services/records/sleep_lines'

/**
 * PostgreSQL only: the rendered sleep lines of each user's calendar month joined (SleepLines), so a
 * year-long sleep list or sleep.csv reads about a dozen stored values instead of having the server
 * build and send one per read. Filled from the lines already stored; a month whose lines change
 * later is joined again by the writer that changes them, and the triggers that drop the lines a
 * write made outside HRVault touches now drop their months too. SQLite joins a window's lines in
 * process and has no such table.
 */
export default class extends BaseSchema {
  protected tableName = SLEEP_MONTHS_TABLE

  async up() {
    if (this.db.dialect.name !== 'postgres') return
    this.schema.createTable(this.tableName, (table) => {
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('month', 7).notNullable()
      table.string('format', 16).notNullable()
      table.integer('lines').notNullable()
      table.text('json').notNullable()
      table.text('csv').notNullable()
      table.primary(['user_id', 'month'])
    })
    // As every other text column since 1763800000780 (PostgreSQL 14 and later, when built with LZ4).
    this.schema.raw(`do $$ begin
  if current_setting('server_version_num')::int >= 140000 then
    alter table ${this.tableName} alter column json set compression lz4, alter column csv set compression lz4;
  end if;
exception when feature_not_supported then null;
end $$`)
    this.schema.raw(FILL_SLEEP_MONTHS_SQL)
    for (const sql of sleepMonthTriggerFunctions().create) this.schema.raw(sql)
  }

  async down() {
    if (this.db.dialect.name !== 'postgres') return
    for (const sql of sleepMonthTriggerFunctions().drop) this.schema.raw(sql)
    this.schema.dropTable(this.tableName)
  }
}

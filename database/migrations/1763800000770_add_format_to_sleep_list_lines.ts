import { BaseSchema } from '@adonisjs/lucid/schema'
import { SLEEP_LINES_TABLE, sleepLineTruncateTriggers } from '#services/records/sleep_lines'

/**
 * Each rendered sleep line records the code digest it was rendered by (`format`, SleepLines): the
 * lines stored so far have none and are rendered again on their window's next read. On
 * PostgreSQL, a TRUNCATE of a source table drops every line too (row triggers do not see it).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`alter table ${SLEEP_LINES_TABLE} add column format varchar(16) not null default ''`)
    if (this.db.dialect.name === 'postgres') for (const sql of sleepLineTruncateTriggers().create) this.schema.raw(sql)
  }

  async down() {
    if (this.db.dialect.name === 'postgres') for (const sql of sleepLineTruncateTriggers().drop) this.schema.raw(sql)
    this.schema.raw(`alter table ${SLEEP_LINES_TABLE} drop column format`)
  }
}

import { BaseSchema } from '@adonisjs/lucid/schema'

/** SleepWise circadian bedtime recommendations, local times as for alertness. */
export default class extends BaseSchema {
  protected tableName = 'sleepwise_bedtimes'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('period_start_time', 19).notNullable()
      table.string('period_end_time', 19).nullable()
      table.string('period_date', 10).notNullable()
      table.string('preferred_sleep_start_time', 19).nullable()
      table.string('preferred_sleep_end_time', 19).nullable()
      table.string('sleep_gate_start_time', 19).nullable()
      table.string('sleep_gate_end_time', 19).nullable()
      table.string('quality', 64).nullable()
      table.string('validity', 64).nullable()
      table.string('result_type', 64).nullable()
      table.integer('sleep_timezone_offset_minutes').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'period_start_time'])
      table.index(['user_id', 'period_date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

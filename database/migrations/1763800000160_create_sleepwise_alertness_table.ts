import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * SleepWise alertness periods. Times are local `YYYY-MM-DD HH:MM:SS`
 * (Polar's UTC plus `sleep_timezone_offset_minutes`); `period_date` for windows.
 */
export default class extends BaseSchema {
  protected tableName = 'sleepwise_alertness'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('period_start_time', 19).notNullable()
      table.string('period_end_time', 19).nullable()
      table.string('period_date', 10).notNullable()
      table.float('grade').nullable()
      table.integer('grade_validity_seconds').nullable()
      table.string('grade_type', 64).nullable()
      table.string('grade_classification', 64).nullable()
      table.string('validity', 64).nullable()
      table.string('sleep_inertia', 64).nullable()
      table.string('sleep_type', 64).nullable()
      table.string('result_type', 64).nullable()
      table.string('sleep_period_start_time', 19).nullable()
      table.string('sleep_period_end_time', 19).nullable()
      table.integer('sleep_timezone_offset_minutes').nullable()
      table.text('hourly_data').nullable()
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

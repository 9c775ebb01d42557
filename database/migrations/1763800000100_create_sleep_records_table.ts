import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * One night per user and date (the wake-up day, as Polar dates it). Stage
 * durations are seconds; times keep Polar's local wall clock plus offset.
 */
export default class extends BaseSchema {
  protected tableName = 'sleep_records'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('date', 10).notNullable()
      table.string('sleep_start_time', 19).nullable()
      table.string('sleep_end_time', 19).nullable()
      table.integer('sleep_start_offset_minutes').nullable()
      table.integer('sleep_end_offset_minutes').nullable()
      table.string('device_id', 64).nullable()
      table.float('continuity').nullable()
      table.integer('continuity_class').nullable()
      table.integer('light_sleep_seconds').nullable()
      table.integer('deep_sleep_seconds').nullable()
      table.integer('rem_sleep_seconds').nullable()
      table.integer('unrecognized_sleep_seconds').nullable()
      table.integer('sleep_score').nullable()
      table.integer('total_interruption_seconds').nullable()
      table.integer('short_interruption_seconds').nullable()
      table.integer('long_interruption_seconds').nullable()
      table.integer('sleep_charge').nullable()
      table.integer('sleep_goal_seconds').nullable()
      table.integer('sleep_rating').nullable()
      table.integer('sleep_cycles').nullable()
      table.float('group_duration_score').nullable()
      table.float('group_solidity_score').nullable()
      table.float('group_regeneration_score').nullable()
      table.integer('heart_rate_avg').nullable()
      table.integer('heart_rate_min').nullable()
      table.integer('heart_rate_max').nullable()
      table.text('hypnogram').nullable()
      table.text('heart_rate_samples').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

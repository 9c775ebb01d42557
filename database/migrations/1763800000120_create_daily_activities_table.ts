import { BaseSchema } from '@adonisjs/lucid/schema'

/** Daily activity summary per user and local date (raw meters and seconds). */
export default class extends BaseSchema {
  protected tableName = 'daily_activities'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('date', 10).notNullable()
      table.string('start_time', 19).nullable()
      table.string('end_time', 19).nullable()
      table.integer('steps').nullable()
      table.integer('calories_total').nullable()
      table.integer('calories_active').nullable()
      table.float('distance_meters').nullable()
      table.float('active_duration_seconds').nullable()
      table.float('inactive_duration_seconds').nullable()
      table.float('daily_activity').nullable()
      table.integer('inactivity_alert_count').nullable()
      table.text('step_samples').nullable()
      table.text('activity_zones').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

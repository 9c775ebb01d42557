import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Activity samples per user and local date as Polar sends them: step runs (collapsed, JSON),
 * activity-zone change points (JSON) and inactivity stamps (JSON).
 */
export default class extends BaseSchema {
  protected tableName = 'activity_samples'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('date', 10).notNullable()
      table.integer('interval_ms').nullable()
      table.integer('total_steps').nullable()
      table.integer('step_run_count').notNullable().defaultTo(0)
      table.text('step_samples').nullable()
      table.text('zone_samples').nullable()
      table.text('inactivity_stamps').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

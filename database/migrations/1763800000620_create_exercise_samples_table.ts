import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Sample streams, heart-rate zones and GPS route of one exercise, from the exercise detail
 * (`samples=true&zones=true&route=true`), keyed like `exercises` by Polar's hashed id. `samples`,
 * `heart_rate_zones` and `route` are JSON text (null when the detail had none); the local start
 * and its UTC offset are kept beside them so GPX/TCX times need nothing else.
 */
export default class extends BaseSchema {
  protected tableName = 'exercise_samples'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('polar_exercise_id', 64).notNullable()
      table.string('start_time', 19).notNullable()
      table.string('start_date', 10).notNullable()
      table.integer('start_time_utc_offset').nullable()
      table.text('samples').nullable()
      table.text('heart_rate_zones').nullable()
      table.text('route').nullable()
      table.integer('route_point_count').notNullable().defaultTo(0)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'polar_exercise_id'])
      table.index(['user_id', 'start_date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

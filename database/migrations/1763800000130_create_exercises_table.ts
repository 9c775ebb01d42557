import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Training sessions, keyed by Polar's hashed exercise id. `start_time` is
 * the local start `YYYY-MM-DD HH:MM:SS`; `start_date` its date, for windows.
 */
export default class extends BaseSchema {
  protected tableName = 'exercises'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('polar_exercise_id', 64).notNullable()
      table.string('start_time', 19).notNullable()
      table.string('start_date', 10).notNullable()
      table.integer('start_time_utc_offset').nullable()
      table.string('upload_time', 32).nullable()
      table.string('device', 100).nullable()
      table.string('device_id', 64).nullable()
      table.float('duration_seconds').nullable()
      table.string('sport', 64).nullable()
      table.string('detailed_sport_info', 100).nullable()
      table.float('distance_meters').nullable()
      table.integer('calories').nullable()
      table.integer('average_heart_rate').nullable()
      table.integer('max_heart_rate').nullable()
      table.float('training_load').nullable()
      table.integer('running_index').nullable()
      table.integer('fat_percentage').nullable()
      table.integer('carbohydrate_percentage').nullable()
      table.integer('protein_percentage').nullable()
      table.boolean('has_route').nullable()
      table.text('heart_rate_zones').nullable()
      table.text('training_load_pro').nullable()
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

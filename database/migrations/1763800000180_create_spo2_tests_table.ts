import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Blood-oxygen tests, keyed by the test instant (epoch ms, UTC).
 * `test_time` is the local time `YYYY-MM-DD HH:MM:SS`; `test_date` its date.
 */
export default class extends BaseSchema {
  protected tableName = 'spo2_tests'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.bigInteger('test_timestamp').notNullable()
      table.string('test_time', 19).notNullable()
      table.string('test_date', 10).notNullable()
      table.integer('time_zone_offset_minutes').nullable()
      table.string('source_device_id', 64).nullable()
      table.string('test_status', 80).nullable()
      table.integer('blood_oxygen_percent').nullable()
      table.string('spo2_class', 64).nullable()
      table.string('spo2_value_deviation_from_baseline', 64).nullable()
      table.float('spo2_quality_average_percent').nullable()
      table.integer('average_heart_rate_bpm').nullable()
      table.float('heart_rate_variability_ms').nullable()
      table.string('spo2_hrv_deviation_from_baseline', 64).nullable()
      table.float('altitude_meters').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'test_timestamp'])
      table.index(['user_id', 'test_date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

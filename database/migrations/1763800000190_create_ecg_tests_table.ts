import { BaseSchema } from '@adonisjs/lucid/schema'

/** ECG tests, keyed like SpO2 tests; waveform and quality samples kept as JSON. */
export default class extends BaseSchema {
  protected tableName = 'ecg_tests'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.bigInteger('test_timestamp').notNullable()
      table.string('test_time', 19).notNullable()
      table.string('test_date', 10).notNullable()
      table.integer('time_zone_offset_minutes').nullable()
      table.string('source_device_id', 64).nullable()
      table.integer('average_heart_rate_bpm').nullable()
      table.float('heart_rate_variability_ms').nullable()
      table.string('heart_rate_variability_level', 64).nullable()
      table.float('rri_ms').nullable()
      table.float('pulse_transit_time_systolic_ms').nullable()
      table.float('pulse_transit_time_diastolic_ms').nullable()
      table.float('pulse_transit_time_quality_index').nullable()
      table.integer('sample_count').notNullable().defaultTo(0)
      table.text('samples').nullable()
      table.text('quality_measurements').nullable()
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

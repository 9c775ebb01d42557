import { BaseSchema } from '@adonisjs/lucid/schema'

/** Body-temperature measurement periods (°C), with min/avg/max over the samples. */
export default class extends BaseSchema {
  protected tableName = 'body_temperatures'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('start_time', 19).notNullable()
      table.string('end_time', 19).nullable()
      table.string('start_date', 10).notNullable()
      table.string('modified_time', 19).nullable()
      table.string('measurement_type', 64).notNullable().defaultTo('TM_UNKNOWN')
      table.string('sensor_location', 64).nullable()
      table.string('source_device_id', 64).nullable()
      table.float('temperature_min_celsius').nullable()
      table.float('temperature_avg_celsius').nullable()
      table.float('temperature_max_celsius').nullable()
      table.integer('sample_count').notNullable().defaultTo(0)
      table.text('samples').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'start_time', 'measurement_type'])
      table.index(['user_id', 'start_date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

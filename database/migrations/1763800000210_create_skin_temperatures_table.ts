import { BaseSchema } from '@adonisjs/lucid/schema'

/** Nightly skin temperature (°C) and its deviation from the personal baseline. */
export default class extends BaseSchema {
  protected tableName = 'skin_temperatures'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('sleep_date', 10).notNullable()
      table.float('sleep_time_skin_temperature_celsius').nullable()
      table.float('deviation_from_baseline_celsius').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'sleep_date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

import { BaseSchema } from '@adonisjs/lucid/schema'

/** Daily cardio load; Polar's -1.0 "not available" sentinel is stored as null. */
export default class extends BaseSchema {
  protected tableName = 'cardio_loads'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('date', 10).notNullable()
      table.float('cardio_load').nullable()
      table.float('strain').nullable()
      table.float('tolerance').nullable()
      table.float('cardio_load_ratio').nullable()
      table.string('cardio_load_status', 64).nullable()
      table.float('level_very_low').nullable()
      table.float('level_low').nullable()
      table.float('level_medium').nullable()
      table.float('level_high').nullable()
      table.float('level_very_high').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

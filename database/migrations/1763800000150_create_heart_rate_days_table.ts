import { BaseSchema } from '@adonisjs/lucid/schema'

/** Continuous heart rate: a daily summary from samples > 0, plus the samples. */
export default class extends BaseSchema {
  protected tableName = 'heart_rate_days'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('date', 10).notNullable()
      table.integer('hr_min').nullable()
      table.integer('hr_avg').nullable()
      table.integer('hr_max').nullable()
      table.integer('sample_count').notNullable().defaultTo(0)
      table.text('samples').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

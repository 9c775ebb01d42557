import { BaseSchema } from '@adonisjs/lucid/schema'

/** Detected patterns, one row per user and pattern name (DESIGN §4). */
export default class extends BaseSchema {
  protected tableName = 'patterns'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('pattern_name', 40).notNullable()
      table.string('pattern_type', 20).notNullable()
      table.double('score').nullable()
      table.double('confidence').nullable()
      table.string('significance', 20).notNullable()
      table.text('metrics_involved').notNullable()
      table.integer('sample_count').notNullable().defaultTo(0)
      table.text('details').notNullable()
      table.timestamp('analyzed_at').notNullable()
      table.unique(['user_id', 'pattern_name'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

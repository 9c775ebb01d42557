import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The last insights answer computed per user (InsightsService.insightsJson), with what it was
 * computed from: the user's data version and the context (day and time zone, app version). It is
 * served only while all of them are still current, so it is the answer a computation now would give.
 */
export default class extends BaseSchema {
  protected tableName = 'insights_snapshots'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.integer('user_id').unsigned().primary().references('id').inTable('users').onDelete('CASCADE')
      table.integer('data_version').notNullable()
      table.string('context', 120).notNullable()
      table.text('body').notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

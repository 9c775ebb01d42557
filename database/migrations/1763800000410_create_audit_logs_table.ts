import { BaseSchema } from '@adonisjs/lucid/schema'

/** Who did what: queue retries, console runs, secret reveals, key changes. */
export default class extends BaseSchema {
  protected tableName = 'audit_logs'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.string('actor_type', 20).notNullable()
      table.string('actor', 120).notNullable()
      table.string('action', 60).notNullable()
      table.string('target', 255).nullable()
      table.string('outcome', 20).notNullable()
      table.text('details').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['action', 'created_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

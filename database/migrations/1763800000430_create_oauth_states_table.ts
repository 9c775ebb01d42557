import { BaseSchema } from '@adonisjs/lucid/schema'

/** Single-use OAuth `state` values, shared by every web process (hashed). */
export default class extends BaseSchema {
  protected tableName = 'oauth_states'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('state_hash', 64).primary()
      table.string('purpose', 40).notNullable()
      table.text('payload').nullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

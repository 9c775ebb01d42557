import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The raw-payload archive: every wire item a pull brought, compressed, one row per user, catalogue
 * type, natural key and content (SHA-256 of the item's canonical JSON), so fetching identical data
 * again only moves `last_seen_at`. `natural_key` holds the natural-key values of the row the item
 * maps to (`unmapped:<hash>` when it maps to none). `payload` is bytea on PostgreSQL, blob on SQLite.
 */
export default class extends BaseSchema {
  protected tableName = 'raw_payloads'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('type', 40).notNullable()
      table.string('natural_key', 255).notNullable()
      table.string('content_hash', 64).notNullable()
      table.binary('payload').notNullable()
      table.timestamp('fetched_at').notNullable()
      table.timestamp('last_seen_at').notNullable()
      table.unique(['user_id', 'type', 'natural_key', 'content_hash'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

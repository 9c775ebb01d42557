import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Access and refresh tokens of a grant (SHA-256 only), each with its scopes (a refresh may narrow
 * them). A refresh token is rotated on use: `used_at` marks it spent, and presenting a spent one
 * revokes the whole grant (RFC 9700).
 */
export default class extends BaseSchema {
  protected tableName = 'oauth_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('token_hash', 64).notNullable().unique()
      table.integer('grant_id').unsigned().notNullable().references('id').inTable('oauth_grants').onDelete('CASCADE')
      table.string('kind', 16).notNullable()
      table.string('scopes', 200).notNullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('revoked_at').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['grant_id', 'kind'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

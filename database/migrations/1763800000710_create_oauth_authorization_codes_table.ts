import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Authorization codes (SHA-256 only), short-lived and single-use, bound to the client, the
 * redirect URI, the resource and the PKCE S256 challenge. `grant_id` is set when the code is
 * exchanged, so a replayed code can revoke what it produced.
 */
export default class extends BaseSchema {
  protected tableName = 'oauth_authorization_codes'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('code_hash', 64).notNullable().unique()
      table.integer('oauth_client_id').unsigned().notNullable().references('id').inTable('oauth_clients').onDelete('CASCADE')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.integer('admin_user_id').unsigned().nullable().references('id').inTable('admin_users').onDelete('SET NULL')
      table.integer('grant_id').unsigned().nullable().references('id').inTable('oauth_grants').onDelete('CASCADE')
      table.string('redirect_uri', 2000).notNullable()
      table.string('scopes', 200).notNullable()
      table.string('resource', 2000).notNullable()
      table.string('code_challenge', 128).notNullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

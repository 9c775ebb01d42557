import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * One approval of a client by an admin ("connected app"): the HRVault user the client may read,
 * the granted scopes (space-separated) and the resource its tokens are for. Revoking the grant
 * ends every token issued under it; deleting the user or the client deletes it.
 */
export default class extends BaseSchema {
  protected tableName = 'oauth_grants'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.integer('oauth_client_id').unsigned().notNullable().references('id').inTable('oauth_clients').onDelete('CASCADE')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.integer('admin_user_id').unsigned().nullable().references('id').inTable('admin_users').onDelete('SET NULL')
      table.string('scopes', 200).notNullable()
      table.string('resource', 2000).notNullable()
      table.timestamp('last_used_at').nullable()
      table.timestamp('revoked_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['oauth_client_id', 'user_id'])
      table.index(['user_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

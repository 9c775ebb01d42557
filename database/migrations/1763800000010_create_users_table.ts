import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * People whose data HRVault keeps. `external_id` is the `{user_id}` of the
 * API paths: the Polar user id (self-hosted) or the integrating app's id (SaaS).
 */
export default class extends BaseSchema {
  protected tableName = 'users'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('external_id', 100).notNullable().unique()
      table.string('polar_user_id', 32).nullable().unique()
      table.string('member_id', 100).nullable()
      table.text('provider_token_encrypted').nullable()
      table.timestamp('provider_token_expires_at').nullable()
      table.boolean('is_active').notNullable().defaultTo(true)
      table.timestamp('connected_at').nullable()
      table.timestamp('last_synced_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['is_active', 'last_synced_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * OAuth clients registered through dynamic client registration (RFC 7591), e.g. an MCP
 * connector. `client_id` is public; confidential clients also get a secret, stored as SHA-256.
 * `redirect_uris` is a JSON array of exact URIs (https, or http on a loopback host).
 */
export default class extends BaseSchema {
  protected tableName = 'oauth_clients'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('client_id', 64).notNullable().unique()
      table.string('client_secret_hash', 64).nullable()
      table.string('name', 200).notNullable()
      table.text('redirect_uris').notNullable()
      table.string('token_endpoint_auth_method', 32).notNullable()
      table.string('client_uri', 2000).nullable()
      table.string('software_id', 200).nullable()
      table.string('software_version', 100).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

import { BaseSchema } from '@adonisjs/lucid/schema'

/** L2 store of @adonisjs/cache in the self-hosted profile. */
export default class extends BaseSchema {
  protected tableName = 'cache'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('key', 255).notNullable().primary()
      table.text('value', 'longtext')
      table.timestamp('expires_at').nullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

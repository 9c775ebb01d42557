import { BaseSchema } from '@adonisjs/lucid/schema'

/** Key/value settings set from the admin UI; secrets are stored encrypted. */
export default class extends BaseSchema {
  protected tableName = 'app_settings'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('key', 100).primary()
      table.text('value').nullable()
      table.boolean('is_encrypted').notNullable().defaultTo(false)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

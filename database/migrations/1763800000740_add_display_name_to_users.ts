import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * An optional name people give a user in the admin UI ("Anna's watch"), shown beside the
 * Polar id. Nullable: the id stays the identity; the name is only a label (at most 80 characters).
 */
export default class extends BaseSchema {
  protected tableName = 'users'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.string('display_name', 80).nullable()
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropColumn('display_name')
    })
  }
}

import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A counter bumped in the same transaction as every write of a user's stored
 * data (sync upserts, baselines and patterns). Read responses are cached under
 * it, so a cached answer can never outlive the data it was computed from.
 */
export default class extends BaseSchema {
  protected tableName = 'users'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.integer('data_version').notNullable().defaultTo(0)
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropColumn('data_version')
    })
  }
}

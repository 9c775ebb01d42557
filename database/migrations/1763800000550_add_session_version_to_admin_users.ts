import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A counter stored in every admin session at login and compared on every
 * authenticated request. Logout, a password change and `admin password` bump
 * it, so a copied session cookie stops working at once (the cookie store keeps
 * the whole session in the browser, where the server cannot delete it).
 */
export default class extends BaseSchema {
  protected tableName = 'admin_users'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.integer('session_version').notNullable().defaultTo(0)
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropColumn('session_version')
    })
  }
}

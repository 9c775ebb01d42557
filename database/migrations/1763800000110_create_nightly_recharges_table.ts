import { BaseSchema } from '@adonisjs/lucid/schema'

/** Nightly Recharge per user and date. `hrv_avg` is Polar's RMSSD in ms. */
export default class extends BaseSchema {
  protected tableName = 'nightly_recharges'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('date', 10).notNullable()
      table.integer('heart_rate_avg').nullable()
      table.integer('beat_to_beat_avg').nullable()
      table.float('hrv_avg').nullable()
      table.float('breathing_rate_avg').nullable()
      table.integer('nightly_recharge_status').nullable()
      table.float('ans_charge').nullable()
      table.integer('ans_charge_status').nullable()
      table.text('hrv_samples').nullable()
      table.text('breathing_samples').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

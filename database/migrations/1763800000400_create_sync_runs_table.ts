import { BaseSchema } from '@adonisjs/lucid/schema'

/** One row per sync of one user: trigger, timing, per-type counts and errors. */
export default class extends BaseSchema {
  protected tableName = 'sync_runs'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('trigger', 20).notNullable()
      table.string('status', 20).notNullable()
      table.integer('days').notNullable()
      table.text('results').nullable()
      table.text('errors').nullable()
      table.text('progress').nullable()
      table.integer('provider_calls').notNullable().defaultTo(0)
      table.text('rate_limit').nullable()
      table.string('job_id', 64).nullable()
      table.timestamp('started_at').notNullable()
      table.timestamp('finished_at').nullable()
      table.index(['user_id', 'started_at'])
      table.index(['status', 'started_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

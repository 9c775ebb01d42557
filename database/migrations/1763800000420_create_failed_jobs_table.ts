import { BaseSchema } from '@adonisjs/lucid/schema'

/** Jobs that exhausted their retries, with integer ids for the operations API. */
export default class extends BaseSchema {
  protected tableName = 'failed_jobs'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.string('connection', 40).notNullable()
      table.string('queue', 100).notNullable()
      table.string('job_name', 100).notNullable()
      table.string('job_id', 64).nullable()
      table.text('payload').notNullable()
      table.text('exception').notNullable()
      table.timestamp('failed_at').notNullable()
      table.index(['failed_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

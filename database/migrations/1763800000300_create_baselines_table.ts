import { BaseSchema } from '@adonisjs/lucid/schema'

/** Personal baselines, one row per user and metric (DESIGN §4). */
export default class extends BaseSchema {
  protected tableName = 'baselines'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('metric_name', 40).notNullable()
      table.double('baseline_value').nullable()
      table.double('baseline_7d').nullable()
      table.double('baseline_30d').nullable()
      table.double('baseline_90d').nullable()
      table.double('median_value').nullable()
      table.double('q1').nullable()
      table.double('q3').nullable()
      table.double('iqr').nullable()
      table.double('std_dev').nullable()
      table.double('min_value').nullable()
      table.double('max_value').nullable()
      table.double('lower_bound').nullable()
      table.double('upper_bound').nullable()
      table.integer('sample_count').notNullable().defaultTo(0)
      table.string('status', 20).notNullable()
      table.string('data_start_date', 10).nullable()
      table.string('data_end_date', 10).nullable()
      table.timestamp('calculated_at').notNullable()
      table.unique(['user_id', 'metric_name'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

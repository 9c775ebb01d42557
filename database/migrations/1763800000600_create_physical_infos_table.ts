import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Physical information (weight, height, heart-rate settings, VO2max, sleep goal): one row per
 * version Polar stamped (`modified`, else `created`), so a change adds history and an unchanged
 * answer rewrites nothing.
 */
export default class extends BaseSchema {
  protected tableName = 'physical_infos'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.bigIncrements('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('measured_at', 20).notNullable()
      table.string('date', 10).notNullable()
      table.float('weight_kg').nullable()
      table.float('height_cm').nullable()
      // Spelled as Lucid's snake case of the attribute `vo2Max` (a digit starts a word).
      table.float('vo_2_max').nullable()
      table.integer('max_heart_rate').nullable()
      table.integer('resting_heart_rate').nullable()
      table.integer('aerobic_threshold').nullable()
      table.integer('anaerobic_threshold').nullable()
      table.string('sleep_goal', 32).nullable()
      table.integer('sleep_goal_minutes').nullable()
      table.string('weight_source', 32).nullable()
      table.string('training_background', 32).nullable()
      table.string('typical_day', 32).nullable()
      table.string('gender', 32).nullable()
      table.string('birthday', 10).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['user_id', 'measured_at'])
      table.index(['user_id', 'date'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}

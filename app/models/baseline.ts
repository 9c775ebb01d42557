import { BaselineSchema } from '#database/schema'
import { column } from '@adonisjs/lucid/orm'

/** A personal baseline of one metric (DESIGN §4 analytics definitions). */
export default class Baseline extends BaselineSchema {
  static table = 'baselines'

  // Names with digits do not round-trip through the snake-case naming strategy
  // (`q1` would become `q_1`), so their column names are spelled out.
  @column({ columnName: 'baseline_7d' })
  declare baseline7D: number | null

  @column({ columnName: 'baseline_30d' })
  declare baseline30D: number | null

  @column({ columnName: 'baseline_90d' })
  declare baseline90D: number | null

  @column({ columnName: 'q1' })
  declare q1: number | null

  @column({ columnName: 'q3' })
  declare q3: number | null
}

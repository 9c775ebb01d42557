import { BaselineSchema } from '#database/schema'
import { column } from '@adonisjs/lucid/orm'

/** A personal baseline of one metric (DESIGN §4 analytics definitions). */
export default class Baseline extends BaselineSchema {
  static table = 'baselines'

  // The generated attribute names do not round-trip to `baseline_7d` & co. through the
  // snake-case naming strategy, so the column names are spelled out.
  @column({ columnName: 'baseline_7d' })
  declare baseline7D: number | null

  @column({ columnName: 'baseline_30d' })
  declare baseline30D: number | null

  @column({ columnName: 'baseline_90d' })
  declare baseline90D: number | null
}

import { Spo2TestSchema } from '#database/schema'
import { column } from '@adonisjs/lucid/orm'

/** A blood-oxygen test; `testTimestamp` (epoch ms) is the natural key. */
export default class Spo2Test extends Spo2TestSchema {
  static table = 'spo2_tests'

  // The snake-case naming strategy turns `spo2Class` into `spo_2_class`; the columns are spelled out.
  @column({ columnName: 'spo2_class' })
  declare spo2Class: string | null

  @column({ columnName: 'spo2_value_deviation_from_baseline' })
  declare spo2ValueDeviationFromBaseline: string | null

  @column({ columnName: 'spo2_quality_average_percent' })
  declare spo2QualityAveragePercent: number | null

  @column({ columnName: 'spo2_hrv_deviation_from_baseline' })
  declare spo2HrvDeviationFromBaseline: string | null
}

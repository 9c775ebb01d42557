import { column } from '@adonisjs/lucid/orm'
import Spo2Test from '#models/spo2_test'

/**
 * SpO2 test with the `spo2_*` columns mapped explicitly: Lucid's default
 * naming turns `spo2Class` into `spo_2_class`, a column that does not
 * exist. Reads and factory writes of the records area go through this.
 */
export default class Spo2TestRecord extends Spo2Test {
  static table = 'spo2_tests'

  @column({ columnName: 'spo2_class' })
  declare spo2Class: string | null

  @column({ columnName: 'spo2_value_deviation_from_baseline' })
  declare spo2ValueDeviationFromBaseline: string | null

  @column({ columnName: 'spo2_quality_average_percent' })
  declare spo2QualityAveragePercent: number | null

  @column({ columnName: 'spo2_hrv_deviation_from_baseline' })
  declare spo2HrvDeviationFromBaseline: string | null
}

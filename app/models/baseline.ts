import { BaselineSchema } from '#database/schema'
import { column } from '@adonisjs/lucid/orm'
import type { DateTime } from 'luxon'
import { isoInstant } from '#models/columns/iso_instant'
import type { BaselineStatus } from '#services/analytics/baseline_calculator'
import type { MetricName } from '#services/analytics/metrics'

/**
 * A personal baseline of one metric (DESIGN §4 analytics definitions), one row per user and metric,
 * written by AnalyticsStore. Quartiles, IQR, SD and bounds are null while the status is insufficient.
 */
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

  @column.dateTime(isoInstant)
  declare calculatedAt: DateTime

  // Always written by the store: the narrower types the analytics code works with.
  declare metricName: MetricName
  declare status: BaselineStatus
  declare baselineValue: number
  declare medianValue: number
  declare minValue: number
  declare maxValue: number
  declare dataStartDate: string
  declare dataEndDate: string
}

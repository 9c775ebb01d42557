import { PatternSchema } from '#database/schema'
import { column } from '@adonisjs/lucid/orm'
import type { DateTime } from 'luxon'
import { isoInstant } from '#models/columns/iso_instant'
import type { PatternName } from '#services/analytics/metrics'
import type { PatternType, Significance } from '#services/analytics/pattern_calculator'

/**
 * A detected pattern of one user (DESIGN §4), one row per user and pattern name, written by
 * AnalyticsStore; `metricsInvolved` (names) and `details` are JSON text.
 */
export default class Pattern extends PatternSchema {
  static table = 'patterns'

  @column.dateTime(isoInstant)
  declare analyzedAt: DateTime

  // Always written by the store: the narrower types the analytics code works with.
  declare patternName: PatternName
  declare patternType: PatternType
  declare significance: Significance
}

import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { LucidModel } from '@adonisjs/lucid/types/model'
import type { DateTime } from 'luxon'
import Baseline from '#models/baseline'
import Pattern from '#models/pattern'
import { DataVersionService } from '#services/data_version_service'
import type { BaselineResult } from '#services/analytics/baseline_calculator'
import type { PatternResult } from '#services/analytics/pattern_calculator'
import { METRIC_NAMES, PATTERN_NAMES, type MetricName, type PatternName } from '#services/analytics/metrics'
import { columnOf, type AttributeOf } from '#services/records/columns'

/**
 * Replaces a user's rows of a model keyed by (user, `name`): deletes the rows whose name the
 * records lack, then INSERT … ON CONFLICT (user_id, name) DO UPDATE of the records in one
 * statement (SQLite ≥ 3.24 and PostgreSQL), each row in the model's shape: its column names and
 * each column's `prepare`.
 */
async function replaceUserRows<Model extends LucidModel>(
  trx: TransactionClientContract,
  model: Model,
  name: AttributeOf<Model>,
  userId: number,
  records: InstanceType<Model>[]
) {
  await trx
    .knexQuery()
    .table(model.table)
    .where(columnOf(model, 'userId' as AttributeOf<Model>), userId)
    .whereNotIn(
      columnOf(model, name),
      records.map((record) => record.$attributes[name] as string)
    )
    .delete()
  if (records.length === 0) return
  const rows = records.map((record) => {
    const row: Record<string, unknown> = {}
    for (const [attribute, value] of Object.entries(record.$attributes)) {
      const column = model.$getColumn(attribute)!
      row[column.columnName] = column.prepare ? column.prepare(value, attribute, record) : value
    }
    return row
  })
  const conflict = ['userId' as AttributeOf<Model>, name].map((attribute) => columnOf(model, attribute))
  await trx.knexQuery().table(model.table).insert(rows).onConflict(conflict).merge()
}

const byOrder =
  <T>(order: readonly string[], key: (x: T) => string) =>
  (a: T, b: T) =>
    order.indexOf(key(a)) - order.indexOf(key(b))

/**
 * Persistence of baselines and patterns through their models (one row per user and metric /
 * pattern name). Each recalculation upserts the user's rows on the unique key and deletes the rows
 * it no longer produces (a metric that lost all its values in the window loses its baseline), in
 * one transaction that also bumps the user's data version; concurrent recalculations for one user
 * (a sync and a POST) cannot collide.
 */
export class AnalyticsStore {
  /** Stores the baselines of one calculation at `at`, replacing the user's previous ones. */
  async replaceBaselines(userId: number, results: BaselineResult[], at: DateTime): Promise<void> {
    await db.transaction(async (trx) => {
      await this.writeBaselines(trx, userId, results, at)
      await DataVersionService.bump(trx, userId)
    })
  }

  /** Stores the patterns of one detection at `at`, replacing the user's previous ones. */
  async replacePatterns(userId: number, results: PatternResult[], at: DateTime): Promise<void> {
    await db.transaction(async (trx) => {
      await this.writePatterns(trx, userId, results, at)
      await DataVersionService.bump(trx, userId)
    })
  }

  /**
   * Stores both of a recompute in one transaction (one commit, one data-version bump): the sync's
   * recompute wrote them in two, and each commit waits for its flush to disk.
   */
  async replaceAll(userId: number, baselines: BaselineResult[], patterns: PatternResult[], at: DateTime): Promise<void> {
    await db.transaction(async (trx) => {
      await this.writeBaselines(trx, userId, baselines, at)
      await this.writePatterns(trx, userId, patterns, at)
      await DataVersionService.bump(trx, userId)
    })
  }

  protected async writeBaselines(trx: TransactionClientContract, userId: number, results: BaselineResult[], at: DateTime) {
    await replaceUserRows(
      trx,
      Baseline,
      'metricName',
      userId,
      results.map((b) =>
        new Baseline().merge({
          userId,
          metricName: b.metricName,
          baselineValue: b.baselineValue,
          baseline7D: b.baseline7d,
          baseline30D: b.baseline30d,
          baseline90D: b.baseline90d,
          medianValue: b.median,
          q1: b.q1,
          q3: b.q3,
          iqr: b.iqr,
          stdDev: b.stdDev,
          minValue: b.min,
          maxValue: b.max,
          lowerBound: b.lowerBound,
          upperBound: b.upperBound,
          sampleCount: b.sampleCount,
          status: b.status,
          dataStartDate: b.dataStartDate,
          dataEndDate: b.dataEndDate,
          calculatedAt: at,
        })
      )
    )
  }

  protected async writePatterns(trx: TransactionClientContract, userId: number, results: PatternResult[], at: DateTime) {
    await replaceUserRows(
      trx,
      Pattern,
      'patternName',
      userId,
      results.map((p) =>
        new Pattern().merge({
          userId,
          patternName: p.patternName,
          patternType: p.patternType,
          score: p.score,
          confidence: p.confidence,
          significance: p.significance,
          metricsInvolved: JSON.stringify(p.metricsInvolved),
          sampleCount: p.sampleCount,
          details: JSON.stringify(p.details),
          analyzedAt: at,
        })
      )
    )
  }

  /** Stored baselines in METRIC_NAMES order. */
  async baselines(userId: number): Promise<Baseline[]> {
    const baselines = await Baseline.query().where('userId', userId)
    return baselines.sort(byOrder(METRIC_NAMES, (b: Baseline) => b.metricName))
  }

  async baseline(userId: number, metric: MetricName): Promise<Baseline | null> {
    return Baseline.query().where('userId', userId).where('metricName', metric).first()
  }

  /** Stored patterns in PATTERN_NAMES order. */
  async patterns(userId: number): Promise<Pattern[]> {
    const patterns = await Pattern.query().where('userId', userId)
    return patterns.sort(byOrder(PATTERN_NAMES, (p: Pattern) => p.patternName))
  }

  async pattern(userId: number, name: PatternName): Promise<Pattern | null> {
    return Pattern.query().where('userId', userId).where('patternName', name).first()
  }
}

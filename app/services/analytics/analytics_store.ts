import db from '@adonisjs/lucid/services/db'
import { DataVersionService } from '#services/data_version_service'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { BaselineResult, BaselineStatus } from '#services/analytics/baseline_calculator'
import type { PatternResult, PatternType, Significance } from '#services/analytics/pattern_calculator'
import { METRIC_NAMES, PATTERN_NAMES, type MetricName, type PatternName } from '#services/analytics/metrics'

/** A baseline as stored, with the time it was calculated (ISO 8601 UTC). */
export interface StoredBaseline extends BaselineResult {
  calculatedAt: string
}

/** A pattern as stored, with the time it was analysed (ISO 8601 UTC). */
export interface StoredPattern extends PatternResult {
  analyzedAt: string
}

type Row = Record<string, any>

/** INSERT … ON CONFLICT (key) DO UPDATE (SQLite ≥ 3.24 and PostgreSQL). */
function upsert(trx: TransactionClientContract, table: string, key: string[], rows: Row[]) {
  return trx.knexQuery().table(table).insert(rows).onConflict(key).merge()
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))
const iso = (v: unknown): string => new Date(v as string | Date).toISOString()
const byOrder = <T>(order: readonly string[], key: (x: T) => string) => (a: T, b: T) =>
  order.indexOf(key(a)) - order.indexOf(key(b))

function toBaseline(r: Row): StoredBaseline {
  return {
    metricName: r.metric_name as MetricName,
    baselineValue: Number(r.baseline_value),
    baseline7d: num(r.baseline_7d),
    baseline30d: num(r.baseline_30d),
    baseline90d: num(r.baseline_90d),
    median: Number(r.median_value),
    q1: num(r.q1),
    q3: num(r.q3),
    iqr: num(r.iqr),
    stdDev: num(r.std_dev),
    min: Number(r.min_value),
    max: Number(r.max_value),
    lowerBound: num(r.lower_bound),
    upperBound: num(r.upper_bound),
    sampleCount: Number(r.sample_count),
    status: r.status as BaselineStatus,
    dataStartDate: String(r.data_start_date),
    dataEndDate: String(r.data_end_date),
    calculatedAt: iso(r.calculated_at),
  }
}

function toPattern(r: Row): StoredPattern {
  return {
    patternName: r.pattern_name as PatternName,
    patternType: r.pattern_type as PatternType,
    score: num(r.score),
    confidence: Number(r.confidence ?? 0),
    significance: r.significance as Significance,
    metricsInvolved: JSON.parse(r.metrics_involved),
    sampleCount: Number(r.sample_count),
    details: JSON.parse(r.details),
    analyzedAt: iso(r.analyzed_at),
  }
}

/**
 * Persistence of baselines and patterns (one row per user and metric / pattern name). Each
 * recalculation upserts the user's rows on the unique key and deletes the rows it no longer
 * produces (a metric that lost all its values in the window loses its baseline), in one
 * transaction; concurrent recalculations for one user (a sync and a POST) cannot collide.
 * Written with the query builder and explicit snake_case columns.
 */
export class AnalyticsStore {
  async replaceBaselines(userId: number, results: BaselineResult[], at: Date): Promise<void> {
    const calculatedAt = at.toISOString()
    await db.transaction(async (trx) => {
      await trx
        .from('baselines')
        .where('user_id', userId)
        .whereNotIn('metric_name', results.map((b) => b.metricName))
        .delete()
      await DataVersionService.bump(trx, userId)
      if (results.length === 0) return
      await upsert(
        trx,
        'baselines',
        ['user_id', 'metric_name'],
        results.map((b) => ({
          user_id: userId,
          metric_name: b.metricName,
          baseline_value: b.baselineValue,
          baseline_7d: b.baseline7d,
          baseline_30d: b.baseline30d,
          baseline_90d: b.baseline90d,
          median_value: b.median,
          q1: b.q1,
          q3: b.q3,
          iqr: b.iqr,
          std_dev: b.stdDev,
          min_value: b.min,
          max_value: b.max,
          lower_bound: b.lowerBound,
          upper_bound: b.upperBound,
          sample_count: b.sampleCount,
          status: b.status,
          data_start_date: b.dataStartDate,
          data_end_date: b.dataEndDate,
          calculated_at: calculatedAt,
        }))
      )
    })
  }

  async replacePatterns(userId: number, results: PatternResult[], at: Date): Promise<void> {
    const analyzedAt = at.toISOString()
    await db.transaction(async (trx) => {
      await trx
        .from('patterns')
        .where('user_id', userId)
        .whereNotIn('pattern_name', results.map((p) => p.patternName))
        .delete()
      await DataVersionService.bump(trx, userId)
      if (results.length === 0) return
      await upsert(
        trx,
        'patterns',
        ['user_id', 'pattern_name'],
        results.map((p) => ({
          user_id: userId,
          pattern_name: p.patternName,
          pattern_type: p.patternType,
          score: p.score,
          confidence: p.confidence,
          significance: p.significance,
          metrics_involved: JSON.stringify(p.metricsInvolved),
          sample_count: p.sampleCount,
          details: JSON.stringify(p.details),
          analyzed_at: analyzedAt,
        }))
      )
    })
  }

  /** Stored baselines in METRIC_NAMES order. */
  async baselines(userId: number): Promise<StoredBaseline[]> {
    const rows = (await db.from('baselines').where('user_id', userId)) as Row[]
    return rows.map(toBaseline).sort(byOrder(METRIC_NAMES, (b: StoredBaseline) => b.metricName))
  }

  async baseline(userId: number, metric: MetricName): Promise<StoredBaseline | null> {
    const row = (await db.from('baselines').where('user_id', userId).where('metric_name', metric).first()) as Row | null
    return row ? toBaseline(row) : null
  }

  /** Stored patterns in PATTERN_NAMES order. */
  async patterns(userId: number): Promise<StoredPattern[]> {
    const rows = (await db.from('patterns').where('user_id', userId)) as Row[]
    return rows.map(toPattern).sort(byOrder(PATTERN_NAMES, (p: StoredPattern) => p.patternName))
  }

  async pattern(userId: number, name: PatternName): Promise<StoredPattern | null> {
    const row = (await db.from('patterns').where('user_id', userId).where('pattern_name', name).first()) as Row | null
    return row ? toPattern(row) : null
  }
}

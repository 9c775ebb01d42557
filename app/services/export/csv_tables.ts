import db from '@adonisjs/lucid/services/db'
import CardioLoad from '#models/cardio_load'
import DailyActivity from '#models/daily_activity'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import { ansChargeStatusLabel } from '#services/polar/labels'
import { qualifiedColumnOf, selectAttributes } from '#services/records/columns'
import { dataType, type DataTypeKey } from '#services/records/data_types'
import { whereAfter } from '#services/records/record_list'
import { HotQueries } from '#services/hot_queries'
import {
  hoursFromSeconds,
  kmFromMeters,
  minutesFromSeconds,
  toInteger,
  totalSleepSeconds,
} from '#services/records/units'

/** A CSV cell: null is written as an empty cell, a real 0 as `0`. */
export type CsvCell = string | number | null

type RawRow = Record<string, any>

/** Where a keyset page starts: after the row with this date and id (dates repeat on no table, ids break ties). */
export interface CsvRowKey {
  date: string
  id: number
}

/**
 * One exported file: its header (the spec's columns, in order), a keyset
 * page query (rows after `after` by date then id, oldest first) and the row mapping.
 * Every page row carries its `id` and `date` for the next page's key.
 */
export interface CsvTable {
  type: DataTypeKey
  file: string
  columns: readonly string[]
  page(userId: number, from: string, to: string, after: CsvRowKey | null, limit: number): Promise<RawRow[]>
  row(raw: RawRow): CsvCell[]
}

/**
 * Rows of a catalogued type for one user in [from, to] after the keyset cursor, oldest first (date
 * then id), read as plain rows (no model hydration); columns are qualified, as a page may join
 * another table. The row id is selected as `id`.
 */
export function datedPage(key: DataTypeKey, userId: number, from: string, to: string, after: CsvRowKey | null, limit: number) {
  const { model, table, dateColumn } = dataType(key)
  const date = `${table}.${dateColumn}`
  const id = `${table}.id`
  const query = model
    .query()
    .pojo<RawRow>()
    .select(`${id} as id`)
    .where(qualifiedColumnOf(model, 'userId'), userId)
    .whereBetween(date, [from, to])
    .orderBy(date, 'asc')
    .orderBy(id, 'asc')
    .limit(limit)
  if (after !== null) {
    whereAfter(
      query,
      [
        { column: date, direction: 'asc' },
        { column: id, direction: 'asc' },
      ],
      [after.date, after.id]
    )
  }
  return query
}

/**
 * Runs a page query as a prepared statement on the driver (HotQueries): the SQL text repeats for
 * every export of a table, so the statement is prepared once instead of per page.
 */
function rowsOf(query: { toSQL(): { sql: string; bindings: readonly unknown[] } }): Promise<RawRow[]> {
  const { sql, bindings } = query.toSQL()
  return HotQueries.scan<RawRow>(sql, [...bindings])
}

/** Rows of a type for one user in [from, to] (`X-Total-Count` of a paged export). */
export async function datedCount(key: DataTypeKey, userId: number, from: string, to: string): Promise<number> {
  const { table, dateColumn } = dataType(key)
  const [row] = (await db.from(table).where('user_id', userId).whereBetween(dateColumn, [from, to]).count('* as total')) as Array<{
    total: number | string
  }>
  return Number(row?.total ?? 0)
}

const sleep: CsvTable = {
  type: 'sleep',
  file: 'sleep',
  columns: [
    'date',
    'sleep_score',
    'total_hours',
    'deep_hours',
    'light_hours',
    'rem_hours',
    'hrv_avg',
    'heart_rate_avg',
    'breathing_rate_avg',
  ],
  // The same night's recharge is joined in: one query per page, no N+1.
  page: (userId, from, to, after, limit) =>
    rowsOf(
      datedPage('sleep', userId, from, to, after, limit)
        .leftJoin(NightlyRecharge.table, (join) => {
          join.on(qualifiedColumnOf(NightlyRecharge, 'userId'), '=', qualifiedColumnOf(SleepRecord, 'userId'))
          join.andOn(qualifiedColumnOf(NightlyRecharge, 'date'), '=', qualifiedColumnOf(SleepRecord, 'date'))
        })
        .select([
          ...selectAttributes(
            SleepRecord,
            ['date', 'sleepScore', 'lightSleepSeconds', 'deepSleepSeconds', 'remSleepSeconds', 'heartRateAvg'],
            { qualified: true }
          ),
          ...selectAttributes(NightlyRecharge, ['hrvAvg', 'breathingRateAvg'], { qualified: true }),
        ])
    ),
  row: (r) => [
    r.date,
    toInteger(r.sleepScore),
    hoursFromSeconds(totalSleepSeconds(r.lightSleepSeconds, r.deepSleepSeconds, r.remSleepSeconds)),
    hoursFromSeconds(r.deepSleepSeconds),
    hoursFromSeconds(r.lightSleepSeconds),
    hoursFromSeconds(r.remSleepSeconds),
    r.hrvAvg,
    toInteger(r.heartRateAvg),
    r.breathingRateAvg,
  ],
}

const activity: CsvTable = {
  type: 'activity',
  file: 'activity',
  columns: ['date', 'steps', 'calories_active', 'calories_total', 'distance_km', 'active_minutes'],
  page: (userId, from, to, after, limit) =>
    rowsOf(
      datedPage('activity', userId, from, to, after, limit).select(
        selectAttributes(
          DailyActivity,
          ['date', 'steps', 'caloriesActive', 'caloriesTotal', 'distanceMeters', 'activeDurationSeconds'],
          { qualified: true }
        )
      )
    ),
  row: (r) => [
    r.date,
    toInteger(r.steps),
    toInteger(r.caloriesActive),
    toInteger(r.caloriesTotal),
    kmFromMeters(r.distanceMeters),
    minutesFromSeconds(r.activeDurationSeconds),
  ],
}

const recharge: CsvTable = {
  type: 'recharge',
  file: 'recharge',
  columns: ['date', 'hrv_avg', 'ans_charge', 'status', 'breathing_rate', 'heart_rate_avg'],
  page: (userId, from, to, after, limit) =>
    rowsOf(
      datedPage('recharge', userId, from, to, after, limit).select(
        selectAttributes(
          NightlyRecharge,
          ['date', 'hrvAvg', 'ansCharge', 'ansChargeStatus', 'breathingRateAvg', 'heartRateAvg'],
          { qualified: true }
        )
      )
    ),
  row: (r) => [
    r.date,
    r.hrvAvg,
    r.ansCharge,
    ansChargeStatusLabel(r.ansChargeStatus),
    r.breathingRateAvg,
    toInteger(r.heartRateAvg),
  ],
}

const cardioLoad: CsvTable = {
  type: 'cardio_load',
  file: 'cardio-load',
  columns: ['date', 'strain', 'tolerance', 'cardio_load', 'load_ratio', 'status'],
  page: (userId, from, to, after, limit) =>
    rowsOf(
      datedPage('cardio_load', userId, from, to, after, limit).select(
        selectAttributes(
          CardioLoad,
          ['date', 'strain', 'tolerance', 'cardioLoad', 'cardioLoadRatio', 'cardioLoadStatus'],
          { qualified: true }
        )
      )
    ),
  row: (r) => [r.date, r.strain, r.tolerance, r.cardioLoad, r.cardioLoadRatio, r.cardioLoadStatus],
}

/** The four CSV exports of the spec, by file name without `.csv`. */
export const CSV_TABLES = { 'sleep': sleep, 'activity': activity, 'recharge': recharge, 'cardio-load': cardioLoad }

export type CsvExportKind = keyof typeof CSV_TABLES

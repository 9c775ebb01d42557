import CardioLoad from '#models/cardio_load'
import DailyActivity from '#models/daily_activity'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import { ansChargeStatusLabel } from '#services/polar/labels'
import { qualifiedColumnOf, selectAttributes } from '#services/records/columns'
import { dataType, type DataTypeKey } from '#services/records/data_types'
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

/**
 * One exported file: its header (the spec's columns, in order), a keyset
 * page query (rows dated after `after`, oldest first) and the row mapping.
 */
export interface CsvTable {
  file: string
  columns: readonly string[]
  page(userId: number, from: string, to: string, after: string | null, limit: number): Promise<RawRow[]>
  row(raw: RawRow): CsvCell[]
}

/**
 * Rows of a catalogued type for one user in [from, to] after the keyset cursor, oldest first, read
 * as plain rows (no model hydration); columns are qualified, as a page may join another table.
 */
function datedPage(key: DataTypeKey, userId: number, from: string, to: string, after: string | null, limit: number) {
  const { model, table, dateColumn } = dataType(key)
  const date = `${table}.${dateColumn}`
  const query = model
    .query()
    .pojo<RawRow>()
    .where(qualifiedColumnOf(model, 'userId'), userId)
    .whereBetween(date, [from, to])
    .orderBy(date, 'asc')
    .limit(limit)
  if (after !== null) query.where(date, '>', after)
  return query
}

const sleep: CsvTable = {
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
      ]),
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
  file: 'activity',
  columns: ['date', 'steps', 'calories_active', 'calories_total', 'distance_km', 'active_minutes'],
  page: (userId, from, to, after, limit) =>
    datedPage('activity', userId, from, to, after, limit).select(
      selectAttributes(
        DailyActivity,
        ['date', 'steps', 'caloriesActive', 'caloriesTotal', 'distanceMeters', 'activeDurationSeconds'],
        { qualified: true }
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
  file: 'recharge',
  columns: ['date', 'hrv_avg', 'ans_charge', 'status', 'breathing_rate', 'heart_rate_avg'],
  page: (userId, from, to, after, limit) =>
    datedPage('recharge', userId, from, to, after, limit).select(
      selectAttributes(
        NightlyRecharge,
        ['date', 'hrvAvg', 'ansCharge', 'ansChargeStatus', 'breathingRateAvg', 'heartRateAvg'],
        { qualified: true }
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
  file: 'cardio-load',
  columns: ['date', 'strain', 'tolerance', 'cardio_load', 'load_ratio', 'status'],
  page: (userId, from, to, after, limit) =>
    datedPage('cardio_load', userId, from, to, after, limit).select(
      selectAttributes(
        CardioLoad,
        ['date', 'strain', 'tolerance', 'cardioLoad', 'cardioLoadRatio', 'cardioLoadStatus'],
        { qualified: true }
      )
    ),
  row: (r) => [r.date, r.strain, r.tolerance, r.cardioLoad, r.cardioLoadRatio, r.cardioLoadStatus],
}

/** The four CSV exports of the spec, by file name without `.csv`. */
export const CSV_TABLES = { 'sleep': sleep, 'activity': activity, 'recharge': recharge, 'cardio-load': cardioLoad }

export type CsvExportKind = keyof typeof CSV_TABLES

import db from '@adonisjs/lucid/services/db'
import { ansChargeStatusLabel } from '#services/polar/labels'
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

/** `table` rows of one user in [from, to] after the keyset cursor, oldest first. */
function datedPage(table: string, userId: number, from: string, to: string, after: string | null, limit: number) {
  const query = db
    .from(table)
    .where(`${table}.user_id`, userId)
    .whereBetween(`${table}.date`, [from, to])
    .orderBy(`${table}.date`, 'asc')
    .limit(limit)
  if (after !== null) query.where(`${table}.date`, '>', after)
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
    datedPage('sleep_records', userId, from, to, after, limit)
      .leftJoin('nightly_recharges', (join) => {
        join.on('nightly_recharges.user_id', '=', 'sleep_records.user_id')
        join.andOn('nightly_recharges.date', '=', 'sleep_records.date')
      })
      .select(
        'sleep_records.date',
        'sleep_records.sleep_score',
        'sleep_records.light_sleep_seconds',
        'sleep_records.deep_sleep_seconds',
        'sleep_records.rem_sleep_seconds',
        'sleep_records.heart_rate_avg',
        'nightly_recharges.hrv_avg',
        'nightly_recharges.breathing_rate_avg'
      ),
  row: (r) => [
    r.date,
    toInteger(r.sleep_score),
    hoursFromSeconds(totalSleepSeconds(r.light_sleep_seconds, r.deep_sleep_seconds, r.rem_sleep_seconds)),
    hoursFromSeconds(r.deep_sleep_seconds),
    hoursFromSeconds(r.light_sleep_seconds),
    hoursFromSeconds(r.rem_sleep_seconds),
    r.hrv_avg,
    toInteger(r.heart_rate_avg),
    r.breathing_rate_avg,
  ],
}

const activity: CsvTable = {
  file: 'activity',
  columns: ['date', 'steps', 'calories_active', 'calories_total', 'distance_km', 'active_minutes'],
  page: (userId, from, to, after, limit) =>
    datedPage('daily_activities', userId, from, to, after, limit).select(
      'date',
      'steps',
      'calories_active',
      'calories_total',
      'distance_meters',
      'active_duration_seconds'
    ),
  row: (r) => [
    r.date,
    toInteger(r.steps),
    toInteger(r.calories_active),
    toInteger(r.calories_total),
    kmFromMeters(r.distance_meters),
    minutesFromSeconds(r.active_duration_seconds),
  ],
}

const recharge: CsvTable = {
  file: 'recharge',
  columns: ['date', 'hrv_avg', 'ans_charge', 'status', 'breathing_rate', 'heart_rate_avg'],
  page: (userId, from, to, after, limit) =>
    datedPage('nightly_recharges', userId, from, to, after, limit).select(
      'date',
      'hrv_avg',
      'ans_charge',
      'ans_charge_status',
      'breathing_rate_avg',
      'heart_rate_avg'
    ),
  row: (r) => [
    r.date,
    r.hrv_avg,
    r.ans_charge,
    ansChargeStatusLabel(r.ans_charge_status),
    r.breathing_rate_avg,
    toInteger(r.heart_rate_avg),
  ],
}

const cardioLoad: CsvTable = {
  file: 'cardio-load',
  columns: ['date', 'strain', 'tolerance', 'cardio_load', 'load_ratio', 'status'],
  page: (userId, from, to, after, limit) =>
    datedPage('cardio_loads', userId, from, to, after, limit).select(
      'date',
      'strain',
      'tolerance',
      'cardio_load',
      'cardio_load_ratio',
      'cardio_load_status'
    ),
  row: (r) => [r.date, r.strain, r.tolerance, r.cardio_load, r.cardio_load_ratio, r.cardio_load_status],
}

/** The four CSV exports of the spec, by file name without `.csv`. */
export const CSV_TABLES = { 'sleep': sleep, 'activity': activity, 'recharge': recharge, 'cardio-load': cardioLoad }

export type CsvExportKind = keyof typeof CSV_TABLES

import db from '@adonisjs/lucid/services/db'
import { shiftDate } from '#services/analytics/metrics'
import type { Scenario } from './scenarios.js'

/** The pinned "today" of every analytics functional test. */
export const TODAY = '2026-03-31'

/** The pinned instant of every analytics functional test: noon of TODAY in APP_TIMEZONE. */
export const NOW = `${TODAY}T12:00:00`

/** ISO date `n` days before the pinned today. */
export const daysAgo = (n: number) => shiftDate(TODAY, -n)

/**
 * Inserts `days` days of a scenario for a user (days ago `days-1` … 0) straight into the
 * source tables, one multi-row insert per table.
 */
export async function seed(userId: number, days: number, scenario: Scenario, offset = 0) {
  const createdAt = new Date().toISOString()
  const recharge: Record<string, unknown>[] = []
  const sleep: Record<string, unknown>[] = []
  const cardio: Record<string, unknown>[] = []
  const activity: Record<string, unknown>[] = []
  for (let i = offset + days - 1; i >= offset; i--) {
    const v = scenario(i)
    const base = { user_id: userId, date: daysAgo(i), created_at: createdAt }
    if (v.hrv !== undefined || v.restingHr !== undefined) {
      recharge.push({ ...base, hrv_avg: v.hrv ?? null, heart_rate_avg: v.restingHr === undefined || v.restingHr === null ? null : Math.round(v.restingHr) })
    }
    if (v.sleep !== undefined) sleep.push({ ...base, sleep_score: v.sleep === null ? null : Math.round(v.sleep) })
    if (v.load !== undefined || v.ratio !== undefined) {
      cardio.push({ ...base, cardio_load: v.load ?? null, cardio_load_ratio: v.ratio ?? null })
    }
    if (v.activity) activity.push({ ...base, steps: 8000 })
  }
  const insert = async (table: string, rows: Record<string, unknown>[]) => {
    for (let i = 0; i < rows.length; i += 200) await db.table(table).multiInsert(rows.slice(i, i + 200))
  }
  await insert('nightly_recharges', recharge)
  await insert('sleep_records', sleep)
  await insert('cardio_loads', cardio)
  await insert('daily_activities', activity)
}

/** Analytics API URL of a user. */
export const url = (externalId: string, path: string) => `/api/v1/users/${externalId}/${path}`

import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { SYNC_TYPES } from '#services/sync/sync_types'

/** Columns that differ between two correct syncs of the same data (identity and bookkeeping time). */
const VOLATILE = new Set(['id', 'user_id', 'created_at', 'updated_at', 'synced_at', 'fetched_at'])

/**
 * Every stored data row of a user, per table, without identity and
 * bookkeeping columns, ordered by the table's natural key: two users synced
 * from the same provider data compare equal.
 */
export async function userData(externalId: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  const user = await User.findByOrFail('externalId', externalId)
  const out: Record<string, Array<Record<string, unknown>>> = {}
  for (const type of SYNC_TYPES) {
    const rows = await db.from(type.table).where('user_id', user.id)
    const keyOf = (row: Record<string, unknown>) => JSON.stringify(type.naturalKey.map((k) => String(row[k])))
    out[type.table] = rows
      .map((row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([k]) => !VOLATILE.has(k))))
      .sort((a: Record<string, unknown>, b: Record<string, unknown>) => keyOf(a).localeCompare(keyOf(b)))
  }
  return out
}

/** Natural keys present more than once per table for a user (must always be empty). */
export async function duplicateKeys(externalId: string): Promise<string[]> {
  const user = await User.findByOrFail('externalId', externalId)
  const out: string[] = []
  for (const type of SYNC_TYPES) {
    const rows = await db
      .from(type.table)
      .where('user_id', user.id)
      .select(type.naturalKey)
      .count('* as n')
      .groupBy(type.naturalKey)
      .havingRaw('count(*) > 1')
    for (const row of rows) out.push(`${type.table} ${JSON.stringify(row)}`)
  }
  return out
}

/** Natural keys of `before` missing from `after`, per table (rows lost). */
export function lostRows(before: Awaited<ReturnType<typeof userData>>, after: Awaited<ReturnType<typeof userData>>): string[] {
  const out: string[] = []
  for (const type of SYNC_TYPES) {
    const key = (row: Record<string, unknown>) => JSON.stringify(type.naturalKey.map((k) => String(row[k])))
    const kept = new Set((after[type.table] ?? []).map(key))
    for (const row of before[type.table] ?? []) if (!kept.has(key(row))) out.push(`${type.table} ${key(row)}`)
  }
  return out
}

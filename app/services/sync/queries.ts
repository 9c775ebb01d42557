import type { TransactionClientContract, QueryClientContract } from '@adonisjs/lucid/types/database'
import type { DateTime } from 'luxon'

/** Rows per multi-row INSERT: stays far below SQLite's and PostgreSQL's bind-parameter limits. */
export const UPSERT_BATCH_SIZE = 200

/** `camelCase` property → `snake_case` column. */
export function toColumn(property: string): string {
  return property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

/**
 * Idempotent batched upsert of mapper rows for one user: `INSERT … ON CONFLICT (user_id, natural
 * key) DO UPDATE` (knex `onConflict().merge()`, same SQL shape on SQLite and PostgreSQL). Every
 * column except the key and `created_at` is overwritten, so a re-sync of the same window leaves the
 * table as it was. Returns the number of rows written.
 */
export async function upsertRows(
  trx: TransactionClientContract,
  table: string,
  userId: number,
  naturalKey: string[],
  rows: Record<string, unknown>[],
  now: DateTime
): Promise<number> {
  if (rows.length === 0) return 0
  const stamp = now.toFormat(trx.dialect.dateTimeFormat)
  const records = rows.map((row) => {
    const record: Record<string, unknown> = { user_id: userId }
    for (const [property, value] of Object.entries(row)) record[toColumn(property)] = value ?? null
    record.created_at = stamp
    record.updated_at = stamp
    return record
  })
  const columns = Object.keys(records[0])
  const conflict = ['user_id', ...naturalKey]
  const merge = columns.filter((c) => !conflict.includes(c) && c !== 'created_at')
  for (let i = 0; i < records.length; i += UPSERT_BATCH_SIZE) {
    const batch = records.slice(i, i + UPSERT_BATCH_SIZE)
    await trx.knexQuery().table(table).insert(batch).onConflict(conflict).merge(merge)
  }
  return records.length
}

/** Polar exercise ids already stored for a user. */
export async function storedExerciseIds(client: QueryClientContract, userId: number): Promise<Set<string>> {
  const rows = await client.from('exercises').where('user_id', userId).select('polar_exercise_id')
  return new Set(rows.map((r: { polar_exercise_id: string }) => r.polar_exercise_id))
}

/** UTC offset (minutes) of the user's latest stored night, null when none is known. */
export async function latestSleepOffset(client: QueryClientContract, userId: number): Promise<number | null> {
  const row = await client
    .from('sleep_records')
    .where('user_id', userId)
    .whereNotNull('sleep_end_offset_minutes')
    .orderBy('date', 'desc')
    .select('sleep_end_offset_minutes')
    .first()
  return row ? Number(row.sleep_end_offset_minutes) : null
}

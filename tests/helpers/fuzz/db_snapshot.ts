import db from '@adonisjs/lucid/services/db'

/**
 * Bookkeeping tables a rejected request may legitimately write: request
 * counters of the rate limiter (every request counts, rejected or not), the
 * lock store and the upstream GET cache.
 */
export const BOOKKEEPING_TABLES = new Set(['rate_limits', 'locks', 'cache'])

let tableNames: string[] | null = null

/** Every application table of the primary connection (migrations bookkeeping excluded). */
export async function applicationTables(): Promise<string[]> {
  if (tableNames) return tableNames
  const connection = db.connection()
  const dialect = connection.dialect.name
  let names: string[]
  if (dialect === 'postgres') {
    const rows = await connection.rawQuery(`select tablename as name from pg_tables where schemaname = current_schema()`)
    names = rows.rows.map((r: any) => r.name)
  } else {
    const rows = await connection.rawQuery(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)
    names = rows.map((r: any) => r.name)
  }
  tableNames = names.filter((n) => !n.startsWith('adonis_schema')).sort()
  return tableNames
}

/** Row count of every application table, in one query. */
export async function rowCounts(exclude: Set<string> = BOOKKEEPING_TABLES): Promise<Record<string, number>> {
  const tables = (await applicationTables()).filter((t) => !exclude.has(t))
  const sql = tables.map((t) => `select '${t}' as t, count(*) as n from "${t}"`).join(' union all ')
  const result = await db.connection().rawQuery(sql)
  const rows = Array.isArray(result) ? result : result.rows
  return Object.fromEntries(rows.map((r: any) => [r.t, Number(r.n)]))
}

/** Tables whose row count differs between two snapshots, with both counts. */
export function countDiff(before: Record<string, number>, after: Record<string, number>) {
  const out: Record<string, [number, number]> = {}
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if ((before[table] ?? 0) !== (after[table] ?? 0)) out[table] = [before[table] ?? 0, after[table] ?? 0]
  }
  return out
}

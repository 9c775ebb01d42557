import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { LucidModel } from '@adonisjs/lucid/types/model'
import type { DateTime } from 'luxon'
import Exercise from '#models/exercise'
import ExerciseSample from '#models/exercise_sample'
import SleepRecord from '#models/sleep_record'
import { DataVersionService } from '#services/data_version_service'
import { pgPrepared, rawRows } from '#services/hot_queries'
import { columnOf, selectAttributes } from '#services/records/columns'
import { dataTypeOfTable } from '#services/records/data_types'
import { SLEEP_LINE_SOURCES, SleepLines } from '#services/records/sleep_lines'

/** Rows per multi-row INSERT on SQLite: stays far below its bind-parameter limit. */
export const UPSERT_BATCH_SIZE = 200

/**
 * Rows per statement on PostgreSQL, where each column travels as one array parameter (no
 * parameter limit): one statement per type for any sync window, bounded for long backfills.
 */
export const PG_UPSERT_BATCH_SIZE = 2000

/** Column types of a PostgreSQL table (`format_type` without length), read once per table. */
const pgColumnTypes = new Map<string, Promise<Map<string, string>>>()

function columnTypesOf(client: QueryClientContract, table: string): Promise<Map<string, string>> {
  let types = pgColumnTypes.get(table)
  if (!types) {
    types = client
      .rawQuery(
        `select attname as name, format_type(atttypid, null) as type from pg_attribute
         where attrelid = ?::regclass and attnum > 0 and not attisdropped`,
        [table]
      )
      .then((result: { rows: Array<{ name: string; type: string }> }) => new Map(result.rows.map((r) => [r.name, r.type])))
    types.catch(() => pgColumnTypes.delete(table))
    pgColumnTypes.set(table, types)
  }
  return types
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

/**
 * Mapper rows of one table as columns: each property is the model's attribute and its column is
 * the model's (`$keys.attributesToColumns`), looked up once per property (not per row); rows
 * repeating a natural key are reduced to the last one, as sequential upserts would leave them
 * (PostgreSQL refuses to update one row twice in a statement).
 */
function prepare(model: LucidModel, rows: Record<string, unknown>[], naturalKey: string[]) {
  const properties = Object.keys(rows[0])
  const known = new Set(properties)
  for (const row of rows) {
    for (const property in row) {
      if (!known.has(property)) {
        known.add(property)
        properties.push(property)
      }
    }
  }
  const columns = properties.map((property) => columnOf(model, property))
  const keyProperties = naturalKey.map((column) => properties[columns.indexOf(column)])
  if (keyProperties.some((p) => p === undefined)) return { properties, columns, rows }
  const byKey = new Map<string, Record<string, unknown>>()
  for (const row of rows) {
    const key = keyProperties.length === 1 ? String(row[keyProperties[0]]) : keyProperties.map((p) => String(row[p])).join('\u0000')
    byKey.delete(key)
    byKey.set(key, row)
  }
  return { properties, columns, rows: byKey.size === rows.length ? rows : [...byKey.values()] }
}

/**
 * Idempotent upsert of mapper rows for one user into a catalogued data type's `table` (its model
 * maps the rows' attributes to columns): `INSERT … ON CONFLICT (user_id, natural key) DO
 * UPDATE` of every column except the key and `created_at`, so a re-sync of the same window leaves
 * the table as it was. Rows whose columns all equal the stored ones are not rewritten (no dead
 * tuples or WAL for an unchanged re-sync; their `updated_at` stays the time their content last
 * changed).
 *
 * PostgreSQL gets one statement per 2 000 rows, each column one array parameter (`unnest`, types
 * read from the table); SQLite gets multi-row INSERTs of 200 rows. The upsert is atomic: in the
 * caller's transaction when given one, else a single statement, or its own transaction when the
 * rows need several statements.
 *
 * When any row is inserted or changed, the user's data version (DataVersionService) is bumped in
 * the same statement (PostgreSQL) or transaction (SQLite), so read caches keyed on it see the new
 * rows the moment they commit; a re-sync that changes nothing leaves it, and the caches, as they are.
 *
 * Returns the number of rows stored: inserted, updated or confirmed unchanged (rows repeating a
 * natural key count once).
 */
export async function upsertRows(
  client: QueryClientContract,
  table: string,
  userId: number,
  naturalKey: string[],
  rows: Record<string, unknown>[],
  now: DateTime
): Promise<number> {
  if (rows.length === 0) return 0
  const stamp = now.toFormat(client.dialect.dateTimeFormat)
  const prepared = prepare(dataTypeOfTable(table).model, rows, naturalKey)
  // A night's or its recharge's change rewrites the night's rendered lines in the same transaction.
  const refreshLines = SLEEP_LINE_SOURCES.has(table)
    ? (target: QueryClientContract) => SleepLines.refresh(target, userId, datesOf(prepared))
    : null
  if (client.dialect.name === 'postgres') {
    const write = async (target: QueryClientContract) => {
      if ((await upsertPg(target, table, userId, naturalKey, prepared, stamp)) && refreshLines) await refreshLines(target)
    }
    if (client.isTransaction || (prepared.rows.length <= PG_UPSERT_BATCH_SIZE && !refreshLines)) await write(client)
    // Nights and recharges are written in a transaction with their lines. A re-sync that brings
    // them unchanged (most hourly syncs) is told so by one read instead of BEGIN, upsert, COMMIT.
    else if (!refreshLines || (await anyChangedPg(client, table, userId, naturalKey, prepared))) await client.transaction((trx) => write(trx))
  } else {
    // SQLite has no data-modifying CTE: count changed rows and bump in one transaction.
    const write = async (target: QueryClientContract) => {
      if (await upsertMultiRow(target, table, userId, naturalKey, prepared, stamp)) {
        await DataVersionService.bump(target, userId)
        if (refreshLines) await refreshLines(target)
      }
    }
    if (client.isTransaction) await write(client)
    else await client.transaction((trx) => write(trx))
  }
  return prepared.rows.length
}

type Prepared = ReturnType<typeof prepare>

/** The `date` values of prepared rows (the natural key of the nights and recharges). */
function datesOf({ properties, columns, rows }: Prepared): string[] {
  const property = properties[columns.indexOf('date')]
  return rows.map((row) => String(row[property]))
}

/** `(t.a, t.b) is distinct from (excluded.a, excluded.b)`: the row's content changed. */
function changedFilter(stored: string, columns: string[], operator: string, incoming = 'excluded') {
  if (columns.length === 0) return 'false'
  const list = (prefix: string) => columns.map((c) => `${prefix}.${quote(c)}`).join(', ')
  return `(${list(stored)}) ${operator} (${list(incoming)})`
}

/** The pieces of a table's PostgreSQL upsert that depend only on its columns (types read once per table). */
async function pgUpsertParts(client: QueryClientContract, table: string, naturalKey: string[], columns: string[]) {
  const types = await columnTypesOf(client, table)
  const typeOf = (column: string) => {
    const type = types.get(column)
    if (!type) throw new Error(`Column ${column} does not exist in ${table}`)
    return type
  }
  const merged = columns.filter((c) => !naturalKey.includes(c))
  const sameKey = [`s."user_id" = ?::${typeOf('user_id')}`, ...naturalKey.map((c) => `s.${quote(c)} = u.${quote(c)}`)].join(' and ')
  return {
    typeOf,
    merged,
    /** `unnest(?::type[], …) as u (columns)`: the batch, one array parameter per column. */
    incoming: `unnest(${columns.map((c) => `?::${typeOf(c)}[]`).join(', ')}) as u (${columns.map(quote).join(', ')})`,
    /** The incoming row `u` is new or differs from the stored one (one binding: the user id). */
    changed: `not exists (select 1 from ${quote(table)} as s where ${sameKey} and not ${changedFilter('s', merged, 'is distinct from', 'u')})`,
    oids: columns.map((c) => BINARY_TEXT_OIDS[typeOf(c)]),
  }
}

/**
 * Each column of a batch as one array parameter: string columns in PostgreSQL's binary array
 * format, the others as array literals the driver serializes as it serializes single values.
 */
function pgColumnArrays(properties: string[], oids: Array<number | undefined>, batch: Record<string, unknown>[]) {
  return properties.map((property, c) => {
    const column = batch.map((row) => row[property] ?? null)
    const oid = oids[c]
    return (oid !== undefined && binaryTextArray(column, oid)) || column
  })
}

/** Whether any of the rows is new or differs from the stored one: one read, nothing locked or written. */
async function anyChangedPg(client: QueryClientContract, table: string, userId: number, naturalKey: string[], { properties, columns, rows }: Prepared) {
  const { incoming, changed, oids } = await pgUpsertParts(client, table, naturalKey, columns)
  const sql = `select 1 as "changed" from ${incoming} where ${changed} limit 1`
  for (let i = 0; i < rows.length; i += PG_UPSERT_BATCH_SIZE) {
    const result = await pgPrepared(client, sql, [...pgColumnArrays(properties, oids, rows.slice(i, i + PG_UPSERT_BATCH_SIZE)), userId])
    if (result.rows.length > 0) return true
  }
  return false
}

async function upsertPg(
  client: QueryClientContract,
  table: string,
  userId: number,
  naturalKey: string[],
  { properties, columns, rows }: Prepared,
  stamp: string
) {
  const { typeOf, merged, incoming, changed, oids } = await pgUpsertParts(client, table, naturalKey, columns)
  const target = ['user_id', ...columns, 'created_at', 'updated_at'].map(quote).join(', ')
  const set = [...merged, 'updated_at'].map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')
  const key = ['user_id', ...naturalKey]
  // The upsert and the data-version bump (only when a row was inserted or changed) are one statement.
  // Rows equal to the stored ones are left out before the insert: ON CONFLICT DO UPDATE locks every
  // conflicting row even when its WHERE skips the update, which writes each row's lock to the heap
  // and the WAL, so an unchanged re-sync would still write every row and wait for its commit's flush.
  const sql =
    `with written as (insert into ${quote(table)} as t (${target}) ` +
    `select ?::${typeOf('user_id')}, u.*, ?::${typeOf('created_at')}, ?::${typeOf('updated_at')} ` +
    `from ${incoming} where ${changed} ` +
    `on conflict (${key.map(quote).join(', ')}) do update set ${set} ` +
    `where ${changedFilter('t', merged, 'is distinct from')} returning 1) ` +
    `${DataVersionService.BUMP_SQL} and exists (select 1 from written)`
  let written = false
  for (let i = 0; i < rows.length; i += PG_UPSERT_BATCH_SIZE) {
    const values = pgColumnArrays(properties, oids, rows.slice(i, i + PG_UPSERT_BATCH_SIZE))
    // The bump updates the user's row exactly when a row was inserted or changed.
    const result = await pgPrepared(client, sql, [userId, stamp, stamp, ...values, userId, userId])
    if (result.rowCount > 0) written = true
  }
  return written
}

/** Element type oids of the string column types sent as binary arrays. */
const BINARY_TEXT_OIDS: Record<string, number> = { 'text': 25, 'character varying': 1043 }

/**
 * Strings as a one-dimensional binary PostgreSQL array (the `array_recv` format): the UTF-8 bytes
 * as they are, without the quoting and backslash escaping of an array literal, which would touch
 * every quote of the JSON samples that make up most of a sync's bytes. Null when a value is
 * neither a string nor null (the column then goes as an array literal).
 */
function binaryTextArray(values: unknown[], oid: number): Buffer | null {
  let size = 20
  let hasNull = 0
  for (const value of values) {
    if (value === null) hasNull = 1
    else if (typeof value !== 'string') return null
    size += 4 + (value === null ? 0 : Buffer.byteLength(value))
  }
  const buffer = Buffer.allocUnsafe(size)
  buffer.writeInt32BE(1, 0) // dimensions
  buffer.writeInt32BE(hasNull, 4)
  buffer.writeInt32BE(oid, 8)
  buffer.writeInt32BE(values.length, 12)
  buffer.writeInt32BE(1, 16) // lower bound
  let offset = 20
  for (const value of values) {
    if (value === null) {
      buffer.writeInt32BE(-1, offset)
      offset += 4
    } else {
      const length = buffer.write(value as string, offset + 4, 'utf8')
      buffer.writeInt32BE(length, offset)
      offset += 4 + length
    }
  }
  return buffer
}

async function upsertMultiRow(
  client: QueryClientContract,
  table: string,
  userId: number,
  naturalKey: string[],
  { properties, columns, rows }: Prepared,
  stamp: string
): Promise<number> {
  const conflict = ['user_id', ...naturalKey]
  const merged = columns.filter((c) => !naturalKey.includes(c))
  // SQLite compares row values with `is not` (its null-safe inequality).
  const changed = changedFilter(quote(table), merged, 'is not')
  let changedRows = 0
  for (let i = 0; i < rows.length; i += UPSERT_BATCH_SIZE) {
    const batch = rows.slice(i, i + UPSERT_BATCH_SIZE).map((row) => {
      const record: Record<string, unknown> = { user_id: userId }
      for (let c = 0; c < columns.length; c++) record[columns[c]] = row[properties[c]] ?? null
      record.created_at = stamp
      record.updated_at = stamp
      return record
    })
    await client
      .knexQuery()
      .table(table)
      .insert(batch)
      .onConflict(conflict)
      .merge([...merged, 'updated_at'])
      .whereRaw(changed)
    // Rows inserted or updated by that statement (the same connection: the caller's transaction).
    const [{ count }] = await client.rawQuery('select changes() as count')
    changedRows += Number(count)
  }
  return changedRows
}

/**
 * Polar exercise ids whose detail is stored for a user: the exercise and its samples row (written
 * from the same detail answer). An exercise stored before samples were kept, still in Polar's
 * 30-day window, is fetched once more for its samples, zones and route.
 */
export async function storedExerciseIds(client: QueryClientContract, userId: number): Promise<Set<string>> {
  // One statement (one round trip, one connection): the ids present in both tables.
  const sql =
    `select polar_exercise_id as "id" from ${Exercise.table} where user_id = ? ` +
    `intersect select polar_exercise_id from ${ExerciseSample.table} where user_id = ?`
  const rows = rawRows<{ id: string }>(await client.rawQuery(sql, [userId, userId]))
  return new Set(rows.map((row) => row.id))
}

/** UTC offset (minutes) of the user's latest stored night, null when none is known. */
export async function latestSleepOffset(client: QueryClientContract, userId: number): Promise<number | null> {
  const row = await SleepRecord.query({ client })
    .pojo<Pick<SleepRecord, 'sleepEndOffsetMinutes'>>()
    .where('userId', userId)
    .whereNotNull('sleepEndOffsetMinutes')
    .orderBy('date', 'desc')
    .select(selectAttributes(SleepRecord, ['sleepEndOffsetMinutes']))
    .first()
  return row ? Number(row.sleepEndOffsetMinutes) : null
}

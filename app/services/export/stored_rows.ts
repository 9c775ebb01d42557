import db from '@adonisjs/lucid/services/db'
import type { TableColumn } from '#services/database_catalog'

/** A stored row as exported: snake_case column names, JSON-ready values. */
export type ExportRow = Record<string, unknown>

/** Columns that never leave the server: the internal user key (the file names the user). */
const INTERNAL_COLUMNS = new Set(['user_id'])

/** The exported columns of a table, in declaration order. */
export const exportedColumns = (columns: TableColumn[]) => columns.filter((column) => !INTERNAL_COLUMNS.has(column.name))

/** `YYYY-MM-DD HH:MM:SS[.fff]` without a zone, as SQLite keeps timestamps (written in UTC). */
const NAIVE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/

function timestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (typeof value === 'number') return new Date(value).toISOString()
  const text = String(value)
  const parsed = new Date(NAIVE_TIMESTAMP.test(text) ? `${text.replace(' ', 'T')}Z` : text)
  return Number.isNaN(parsed.getTime()) ? text : parsed.toISOString()
}

/**
 * JSON kept in a text column (hypnograms, sample series, zones, pattern details), written by
 * JSON.stringify: exported as the JSON it holds, embedded as stored instead of parsed and
 * re-serialised (a ten-year takeout would otherwise build millions of short-lived objects).
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text)
  }
}

/** One-line JSON arrays and objects become JsonText; anything else (or JSON over several lines) stays a string or is parsed. */
function jsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const first = value[0]
  const last = value[value.length - 1]
  if ((first === '[' && last === ']') || (first === '{' && last === '}')) {
    if (!value.includes('\n') && !value.includes('\r')) return new JsonText(value)
    try {
      return JSON.parse(value)
    } catch {
      return value
    }
  }
  return value
}

function number(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null
  const parsed = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(parsed) ? parsed : null
}

function isoDate(value: unknown): unknown {
  if (!(value instanceof Date)) return value
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`
}

/**
 * One stored value read back the same way on SQLite and PostgreSQL: booleans as true/false (SQLite
 * keeps 0/1), integers and decimals as numbers (PostgreSQL sends numeric as text), timestamps as
 * ISO 8601 UTC, JSON text as JSON, binary as base64; null stays null, 0 stays 0.
 */
export function exportValue(column: TableColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (column.kind) {
    case 'boolean':
      return typeof value === 'string' ? value === 'true' || value === '1' || value === 't' : Boolean(value)
    case 'integer':
    case 'number':
      return number(value)
    case 'timestamp':
      return timestamp(value)
    case 'date':
      return isoDate(value)
    case 'json':
    case 'text':
      return jsonText(value)
    case 'binary':
      return Buffer.isBuffer(value) ? value.toString('base64') : value
    default:
      return value instanceof Date ? value.toISOString() : value
  }
}

/** A database row in its exported shape (the exported columns only). */
export function exportRow(columns: TableColumn[], raw: Record<string, unknown>): ExportRow {
  const row: ExportRow = {}
  for (const column of columns) row[column.name] = exportValue(column, raw[column.name])
  return row
}

/** One JSON Lines line (LF-terminated); JsonText values are embedded as stored. */
export function jsonLine(row: ExportRow): string {
  let line = ''
  for (const key in row) {
    const value = row[key]
    line += `${line === '' ? '{' : ','}${JSON.stringify(key)}:${value instanceof JsonText ? value.text : JSON.stringify(value ?? null)}`
  }
  return `${line === '' ? '{' : line}}\n`
}

/** A CSV cell of an exported value: objects and arrays as JSON text, booleans as true/false. */
export function csvCell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'number' || typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (value instanceof JsonText) return value.text
  return JSON.stringify(value)
}

/** Which rows of a table to read, and in what order. */
export interface RowSelection {
  table: string
  /** Every column of the table (DatabaseCatalog.columns); only exported ones are selected. */
  columns: TableColumn[]
  userColumn?: string
  userId: number
  /** Column ordering the rows (oldest first); `id` breaks ties. Rows are read in `id` order without it. */
  orderColumn?: string | null
  /** Inclusive `[from, to]` on `orderColumn` (a `days=N` window). */
  between?: [string, string]
  /**
   * Roughly how many bytes of stored values one query may bring (default 128 KB): the rows per
   * query follow the rows' size, 10 to 1 000 (a day of heart-rate samples is ~10 KB, a cardio-load
   * day ~100 bytes), so each page is short-lived and a large table never sits in memory.
   */
  pageBytes?: number
}

const MIN_PAGE_ROWS = 10
const MAX_PAGE_ROWS = 1000

/** Approximate size of a row's stored values (string lengths, 8 bytes per other value). */
function rowBytes(row: Record<string, unknown>): number {
  let bytes = 0
  for (const key in row) {
    const value = row[key]
    bytes += typeof value === 'string' ? value.length : Buffer.isBuffer(value) ? value.length : 8
  }
  return bytes
}

/**
 * The selected rows in keyset pages (`(order column, id) > last`), each page one indexed query
 * sized by `pageBytes`: a table of any size is read with bounded memory, without OFFSET scans, and
 * the first page can be awaited before a response starts. A table without an `id` column is read in
 * OFFSET pages.
 */
export async function* rowPages(selection: RowSelection): AsyncGenerator<ExportRow[]> {
  const { table, columns, userId, between } = selection
  const pageBytes = selection.pageBytes ?? 128 * 1024
  let pageSize = Math.max(MIN_PAGE_ROWS, Math.min(50, Math.floor(pageBytes / 2048)))
  const exported = exportedColumns(columns)
  const hasId = columns.some((column) => column.name === 'id')
  const order = selection.orderColumn && columns.some((c) => c.name === selection.orderColumn) ? selection.orderColumn : null
  // A nullable order column could hide rows from the keyset: order by id alone then.
  const ordered = order !== null && !columns.find((c) => c.name === order)!.nullable ? order : null
  let after: Record<string, unknown> | null = null
  let offset = 0
  while (true) {
    const query = db
      .from(table)
      .where(selection.userColumn ?? 'user_id', userId)
      .select(exported.map((column) => column.name))
      .limit(pageSize)
    if (between && order !== null) query.whereBetween(order, between)
    if (hasId) {
      if (ordered !== null) query.orderBy(ordered, 'asc')
      query.orderBy('id', 'asc')
      const last = after
      if (last !== null) {
        if (ordered !== null) {
          query.where((q) =>
            q.where(ordered, '>', last[ordered] as string).orWhere((same) => same.where(ordered, last[ordered] as string).where('id', '>', last.id as number))
          )
        } else {
          query.where('id', '>', last.id as number)
        }
      }
    } else {
      query.orderBy(exported.map((column) => column.name)).offset(offset)
    }
    const raw = (await query) as Record<string, unknown>[]
    if (raw.length > 0) {
      yield raw.map((row) => exportRow(exported, row))
      after = raw[raw.length - 1]
      offset += raw.length
    }
    if (raw.length < pageSize) return
    const average = raw.reduce((sum, row) => sum + rowBytes(row), 0) / raw.length
    pageSize = Math.max(MIN_PAGE_ROWS, Math.min(MAX_PAGE_ROWS, Math.floor(pageBytes / Math.max(1, average))))
  }
}

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

/** The ordering of a selection: its order column (when usable for a keyset) then `id`. */
function selectionOrder(selection: RowSelection) {
  const { columns } = selection
  const hasId = columns.some((column) => column.name === 'id')
  const order = selection.orderColumn && columns.some((c) => c.name === selection.orderColumn) ? selection.orderColumn : null
  // A nullable order column could hide rows from the keyset: order by id alone then.
  const ordered = order !== null && !columns.find((c) => c.name === order)!.nullable ? order : null
  return { hasId, order, ordered }
}

/** The selection's rows after the keyset position `after` (a raw row), in order, without a limit. */
function selectionQuery(selection: RowSelection, after: Record<string, unknown> | null) {
  const { table, userId, between } = selection
  const { hasId, order, ordered } = selectionOrder(selection)
  const query = db.from(table).where(selection.userColumn ?? 'user_id', userId)
  if (between && order !== null) query.whereBetween(order, between)
  if (hasId) {
    if (ordered !== null) query.orderBy(ordered, 'asc')
    query.orderBy('id', 'asc')
    if (after !== null) {
      if (ordered !== null) {
        query.where((q) =>
          q.where(ordered, '>', after[ordered] as string).orWhere((same) => same.where(ordered, after[ordered] as string).where('id', '>', after.id as number))
        )
      } else {
        query.where('id', '>', after.id as number)
      }
    }
  }
  return query
}

/**
 * Where a page of a selection starts and ends, for `limit`/`cursor` pages of an export: the keyset
 * values of a cursor (`after` = the row id, `key` = the order column's value when it orders the
 * rows), and of the page's last row when a row follows it (else null).
 */
export const selectionKeyset = {
  /** The raw-row position of a cursor, or null when the cursor does not fit the selection. */
  start(selection: RowSelection, cursor: { after: number; key: Array<string | number> | null }): Record<string, unknown> | null {
    const { hasId, ordered } = selectionOrder(selection)
    if (!hasId) return null
    const key = cursor.key ?? []
    if (ordered === null) return key.length === 0 ? { id: cursor.after } : null
    return key.length === 1 ? { id: cursor.after, [ordered]: key[0] } : null
  },

  /** The cursor of the page after `limit` rows from `after`, or null when no row follows them. */
  async next(selection: RowSelection, after: Record<string, unknown> | null, limit: number) {
    const { ordered } = selectionOrder(selection)
    const columns = ordered === null ? ['id'] : ['id', ordered]
    const [last, beyond] = (await selectionQuery(selection, after)
      .select(columns)
      .offset(limit - 1)
      .limit(2)) as Array<Record<string, unknown>>
    if (!last || !beyond) return null
    return { after: Number(last.id), key: ordered === null ? [] : [String(last[ordered])] }
  },

  /** Rows of the selection's filter (`X-Total-Count`). */
  async count(selection: RowSelection): Promise<number> {
    const { table, userId, between } = selection
    const { order } = selectionOrder(selection)
    const query = db.from(table).where(selection.userColumn ?? 'user_id', userId)
    if (between && order !== null) query.whereBetween(order, between)
    const [row] = (await query.count('* as total')) as Array<{ total: number | string }>
    return Number(row?.total ?? 0)
  },
}

/**
 * The selected rows in keyset pages (`(order column, id) > last`), each page one indexed query
 * sized by `pageBytes`: a table of any size is read with bounded memory, without OFFSET scans, and
 * the first page can be awaited before a response starts. A table without an `id` column is read in
 * OFFSET pages. `after` starts the walk after a keyset position; `maxRows` ends it.
 */
export async function* rowPages(
  selection: RowSelection,
  options: { after?: Record<string, unknown> | null; maxRows?: number } = {}
): AsyncGenerator<ExportRow[]> {
  const { columns } = selection
  const pageBytes = selection.pageBytes ?? 128 * 1024
  let pageSize = Math.max(MIN_PAGE_ROWS, Math.min(50, Math.floor(pageBytes / 2048)))
  const exported = exportedColumns(columns)
  const { hasId } = selectionOrder(selection)
  let after: Record<string, unknown> | null = options.after ?? null
  let remaining = options.maxRows ?? Number.POSITIVE_INFINITY
  let offset = 0
  while (remaining > 0) {
    const limit = Math.min(pageSize, remaining)
    const query = selectionQuery(selection, after)
      .select(exported.map((column) => column.name))
      .limit(limit)
    if (!hasId) query.orderBy(exported.map((column) => column.name)).offset(offset)
    const raw = (await query) as Record<string, unknown>[]
    if (raw.length > 0) {
      yield raw.map((row) => exportRow(exported, row))
      after = raw[raw.length - 1]
      offset += raw.length
      remaining -= raw.length
    }
    if (raw.length < limit) return
    const average = raw.reduce((sum, row) => sum + rowBytes(row), 0) / raw.length
    pageSize = Math.max(MIN_PAGE_ROWS, Math.min(MAX_PAGE_ROWS, Math.floor(pageBytes / Math.max(1, average))))
  }
}

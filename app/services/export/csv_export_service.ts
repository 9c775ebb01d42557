import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import { Readable } from 'node:stream'
import type { PageCursor } from '#services/api/pagination'
import { dataType } from '#services/records/data_types'
import { RecordWindowService } from '#services/records/record_window'
import { invalidCursor, type ListRequest } from '#services/records/record_list'
import { CSV_TABLES, datedCount, datedPage, type CsvExportKind, type CsvRowKey, type CsvTable } from '#services/export/csv_tables'
import { csvLine } from '#services/export/csv_format'
import { SleepLines } from '#services/records/sleep_lines'
import type { UserRef } from '#services/user_service'

/**
 * A CSV export ready to send: the whole text when it fits in one page of rows (a year of days does),
 * else a stream of pages. `next` and `total` are set on a paged export (`limit`/`cursor`).
 */
export interface CsvExport {
  filename: string
  content: string | Readable
  next: PageCursor | null
  total: number | null
}

/** The headers of an export sent as an attachment named `filename`. */
export function csvHeaders(filename: string): Record<string, string> {
  return { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` }
}

/** Sends an export as an attachment: its text as one body, or its stream of pages. */
export function sendCsv(response: HttpContext['response'], file: CsvExport) {
  for (const [name, value] of Object.entries(csvHeaders(file.filename))) response.header(name, value)
  if (typeof file.content === 'string') response.send(file.content)
  else response.stream(file.content)
}

/** The lines of a page of rows (empty for none). */
function csvRows(table: CsvTable, rows: ReadonlyArray<Record<string, any>>): string {
  let text = ''
  for (const raw of rows) text += csvLine(table.row(raw))
  return text
}

/**
 * Writes the spec's CSV files: header row, then one row per day, oldest
 * first, read from the database in keyset pages so a long export is never
 * held in memory; each page is written as one chunk of text, and an export
 * of a single page is sent as one body. RFC 4180: CRLF
 * line ends, fields with a comma, quote or line break quoted, quotes doubled;
 * null is an empty cell.
 */
@inject()
export class CsvExportService {
  /** Rows read per database query, written as one chunk (a year of days is one page). */
  static pageSize = 1000

  constructor(protected windows: RecordWindowService) {}

  /**
   * Opens the export of `kind` for the window (`days` or a range) and, when paged, for at most
   * `limit` rows after the cursor, every page with its own header row. The user lookup, the
   * first page and a page's boundary and count run before streaming starts, so an unknown user
   * (404), a foreign cursor (422) or a database failure is still a problem response.
   */
  async open(kind: CsvExportKind, userId: string, request: ListRequest | number): Promise<CsvExport> {
    const { window, page } = typeof request === 'number' ? { window: request, page: null } : request
    const { user, from, to } = await this.windows.open(userId, window)
    const table = CSV_TABLES[kind]
    const pageSize = CsvExportService.pageSize
    let start: CsvRowKey | null = null
    if (page?.after != null) {
      const key = page.key ?? []
      if (key.length !== 1 || typeof key[0] !== 'string') throw invalidCursor()
      start = { date: key[0], id: page.after }
    }
    // A page ends after `limit` rows; the row after it, if any, says that a next page exists.
    let next: PageCursor | null = null
    let total: number | null = null
    if (page) {
      const [last, beyond] = (await datedPage(table.type, user.id, from, to, start, 2)
        .select(`${dataType(table.type).table}.${dataType(table.type).dateColumn} as date`)
        .offset(page.limit - 1)) as Array<{ id: number; date: string }>
      if (last && beyond) next = { after: Number(last.id), key: [String(last.date)] }
      total = await datedCount(table.type, user.id, from, to)
    }
    // A whole sleep window of at most a page of nights: the nights' rendered rows (SleepLines).
    if (kind === 'sleep' && !page && daysIn(from, to) <= pageSize) return this.sleepWindow(user, from, to)
    const filename = csvFilename(table, user, from, to)
    let remaining = page ? page.limit : Number.POSITIVE_INFINITY
    const first = await table.page(user.id, from, to, start, Math.min(pageSize, remaining))
    const text = csvLine(table.columns) + csvRows(table, first)
    remaining -= first.length
    // The last page already: the whole file as one body (sent with its length, no stream to drive).
    if (first.length < pageSize || remaining <= 0) return { filename, content: text, next, total }

    async function* chunks(): AsyncGenerator<string> {
      yield text
      let batch = first
      while (true) {
        const last = batch[batch.length - 1]
        batch = await table.page(user.id, from, to, { date: String(last.date), id: Number(last.id) }, Math.min(pageSize, remaining))
        const chunk = csvRows(table, batch)
        if (chunk) yield chunk
        remaining -= batch.length
        if (batch.length < pageSize || remaining <= 0) return
      }
    }

    const csv = Readable.from(chunks(), { objectMode: false })
    csv.on('error', (error) => logger.error({ err: error, export: kind }, 'CSV export stream failed'))
    return { filename, content: csv, next, total }
  }

  /**
   * sleep.csv of a whole window of at most a page of nights (one body): the header and the nights'
   * rendered rows, joined by the database (SleepLines).
   */
  async sleepWindow(user: UserRef, from: string, to: string): Promise<CsvExport & { content: string }> {
    const table = CSV_TABLES.sleep
    const content = await SleepLines.csv(user.id, from, to, csvLine(table.columns))
    return { filename: csvFilename(table, user, from, to), content, next: null, total: null }
  }
}

/** An export's file name: its table, the user and the window. */
function csvFilename(table: CsvTable, user: UserRef, from: string, to: string): string {
  return `${table.file}_${user.externalId}_${from}_${to}.csv`
}

/** Calendar days in [from, to] (ISO dates): the most nights the window can hold. */
function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1
}

import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Readable, pipeline, type Transform } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { PageCursor } from '#services/api/pagination'
import { dataType } from '#services/records/data_types'
import { RecordWindowService } from '#services/records/record_window'
import { invalidCursor, type ListRequest } from '#services/records/record_list'
import { CSV_TABLES, datedCount, datedPage, type CsvCell, type CsvExportKind, type CsvRowKey } from '#services/export/csv_tables'

/** A CSV export ready to stream; `next` and `total` are set on a paged export (`limit`/`cursor`). */
export interface CsvExport {
  filename: string
  stream: Transform
  next: PageCursor | null
  total: number | null
}

/**
 * Streams the spec's CSV files: header row, then one row per day, oldest
 * first, read from the database in keyset pages so a 365-day export is
 * never held in memory. RFC 4180: CRLF line ends, fields with a comma,
 * quote or line break quoted, quotes doubled; null is an empty cell.
 */
@inject()
export class CsvExportService {
  /** Rows read per database query. */
  static pageSize = 100

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
    let remaining = page ? page.limit : Number.POSITIVE_INFINITY
    const first = await table.page(user.id, from, to, start, Math.min(pageSize, remaining))

    async function* rows(): AsyncGenerator<CsvCell[]> {
      let batch = first
      while (true) {
        for (const raw of batch) yield table.row(raw)
        remaining -= batch.length
        if (batch.length < pageSize || remaining <= 0) return
        const last = batch[batch.length - 1]
        batch = await table.page(user.id, from, to, { date: String(last.date), id: Number(last.id) }, Math.min(pageSize, remaining))
      }
    }

    const csv = stringify({ header: true, columns: [...table.columns], record_delimiter: '\r\n' })
    pipeline(Readable.from(rows()), csv, (error) => {
      if (error) logger.error({ err: error, export: kind }, 'CSV export stream failed')
    })
    return { filename: `${table.file}_${user.externalId}_${from}_${to}.csv`, stream: csv, next, total }
  }
}

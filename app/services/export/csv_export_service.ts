import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Readable, pipeline, type Transform } from 'node:stream'
import { stringify } from 'csv-stringify'
import { RecordWindowService } from '#services/records/record_window'
import { CSV_TABLES, type CsvCell, type CsvExportKind } from '#services/export/csv_tables'

/** A CSV export ready to stream. */
export interface CsvExport {
  filename: string
  stream: Transform
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
   * Opens the export of `kind` for the last `days` calendar days. The user
   * lookup and the first page run before streaming starts, so an unknown
   * user (404) or a database failure is still a problem response.
   */
  async open(kind: CsvExportKind, userId: string, days: number): Promise<CsvExport> {
    const { user, from, to } = await this.windows.open(userId, days)
    const table = CSV_TABLES[kind]
    const pageSize = CsvExportService.pageSize
    const first = await table.page(user.id, from, to, null, pageSize)

    async function* rows(): AsyncGenerator<CsvCell[]> {
      let page = first
      while (true) {
        for (const raw of page) yield table.row(raw)
        if (page.length < pageSize) return
        page = await table.page(user.id, from, to, page[page.length - 1].date, pageSize)
      }
    }

    const csv = stringify({ header: true, columns: [...table.columns], record_delimiter: '\r\n' })
    pipeline(Readable.from(rows()), csv, (error) => {
      if (error) logger.error({ err: error, export: kind }, 'CSV export stream failed')
    })
    return { filename: `${table.file}_${user.externalId}_${from}_${to}.csv`, stream: csv }
  }
}

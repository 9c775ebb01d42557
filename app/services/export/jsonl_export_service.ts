import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Readable } from 'node:stream'
import { DatabaseCatalog } from '#services/database_catalog'
import { jsonLine, rowPages, type ExportRow } from '#services/export/stored_rows'
import { dataType, type DataTypeKey } from '#services/records/data_types'
import { RecordWindowService } from '#services/records/record_window'

/** A JSON Lines export ready to stream. */
export interface JsonlExport {
  filename: string
  stream: Readable
}

/**
 * An async iterator whose first step has already run: awaiting it surfaces a database failure while a
 * problem response can still be sent; the rest is pulled as the client reads.
 */
export async function primed<T>(source: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await source.next()
  return (async function* () {
    if (first.done) return
    yield first.value
    yield* source
  })()
}

/**
 * `/export/{type}.jsonl?days=`: every catalogued data type as JSON Lines, one stored row per line,
 * oldest first, with the table's own snake_case columns (every stored field, the internal user key
 * left out; JSON text columns embedded as JSON). Read in keyset pages, so any window streams with
 * bounded memory.
 */
@inject()
export class JsonlExportService {
  constructor(
    protected windows: RecordWindowService,
    protected catalog: DatabaseCatalog
  ) {}

  /**
   * Opens the export of `key` for the last `days` calendar days. The user lookup
   * (UnknownUserException, 404) and the first page run before streaming starts.
   */
  async open(key: DataTypeKey, userId: string, days: number): Promise<JsonlExport> {
    const { user, from, to } = await this.windows.open(userId, days)
    const { table, dateColumn } = dataType(key)
    const columns = await this.catalog.columns(table)
    const pages = await primed(rowPages({ table, columns, userId: user.id, orderColumn: dateColumn, between: [from, to] }))

    async function* lines(): AsyncGenerator<string> {
      for await (const page of pages) yield page.map((row: ExportRow) => jsonLine(row)).join('')
    }
    const stream = Readable.from(lines())
    stream.on('error', (error) => logger.error({ err: error, export: key }, 'JSON Lines export stream failed'))
    return { filename: `${key}_${user.externalId}_${from}_${to}.jsonl`, stream }
  }
}

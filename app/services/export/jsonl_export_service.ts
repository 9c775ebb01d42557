import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Readable } from 'node:stream'
import { DatabaseCatalog } from '#services/database_catalog'
import { jsonLine, rowPages, selectionKeyset, type ExportRow, type RowSelection } from '#services/export/stored_rows'
import type { PageCursor } from '#services/api/pagination'
import { invalidCursor, type ListRequest } from '#services/records/record_list'
import { dataType, type DataTypeKey } from '#services/records/data_types'
import { RecordWindowService } from '#services/records/record_window'

/** A JSON Lines export ready to stream; `next` and `total` are set on a paged export (`limit`/`cursor`). */
export interface JsonlExport {
  filename: string
  stream: Readable
  next: PageCursor | null
  total: number | null
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
 * `/export/{type}.jsonl?days=` (or `from`/`to`, `limit`/`cursor`): every catalogued data type as JSON Lines, one stored row per line,
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
   * Opens the export of `key` for the window (`days` or a range) and, when paged, for at most
   * `limit` rows after the cursor. The user lookup (UnknownUserException, 404), a page's boundary
   * and count and the first rows run before streaming starts.
   */
  async open(key: DataTypeKey, userId: string, request: ListRequest | number): Promise<JsonlExport> {
    const { window, page } = typeof request === 'number' ? { window: request, page: null } : request
    const { user, from, to } = await this.windows.open(userId, window)
    const { table, dateColumn } = dataType(key)
    const columns = await this.catalog.columns(table)
    const selection: RowSelection = { table, columns, userId: user.id, orderColumn: dateColumn, between: [from, to] }
    let after: Record<string, unknown> | null = null
    let next: PageCursor | null = null
    let total: number | null = null
    if (page) {
      if (page.after !== null) {
        after = selectionKeyset.start(selection, { after: page.after, key: page.key })
        if (after === null) throw invalidCursor()
      }
      next = await selectionKeyset.next(selection, after, page.limit)
      total = await selectionKeyset.count(selection)
    }
    const pages = await primed(rowPages(selection, { after, maxRows: page?.limit }))

    async function* lines(): AsyncGenerator<string> {
      for await (const rows of pages) yield rows.map((row: ExportRow) => jsonLine(row)).join('')
    }
    const stream = Readable.from(lines())
    stream.on('error', (error) => logger.error({ err: error, export: key }, 'JSON Lines export stream failed'))
    return { filename: `${key}_${user.externalId}_${from}_${to}.jsonl`, stream, next, total }
  }
}

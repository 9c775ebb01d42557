import type { TableColumn } from '#services/database_catalog'
import { csvLine } from '#services/export/csv_format'
import { csvCell, exportedColumns, jsonLine, type ExportRow } from '#services/export/stored_rows'

/** One file to write: its name and its content as chunks, plus the rows they hold. */
export interface TakeoutPart {
  name: string
  content: () => AsyncGenerator<{ chunk: string; rows: number }>
}

/** Chunks handed to the ZIP writer are about this size, so little is buffered between the steps. */
const CHUNK_CHARS = 16 * 1024

/** Joins small pieces into ~64 KB chunks (a chunk also says how many rows it completes). */
export async function* chunked(pieces: AsyncGenerator<{ text: string; rows: number }>) {
  let chunk = ''
  let rows = 0
  for await (const piece of pieces) {
    chunk += piece.text
    rows += piece.rows
    if (chunk.length >= CHUNK_CHARS) {
      yield { chunk, rows }
      chunk = ''
      rows = 0
    }
  }
  if (chunk !== '' || rows > 0) yield { chunk, rows }
}

/** JSON Lines of the pages, one line per row. */
export async function* jsonlPieces(pages: AsyncGenerator<ExportRow[]>) {
  for await (const page of pages) for (const row of page) yield { text: jsonLine(row), rows: 1 }
}

/** RFC 4180 CSV of the pages (CRLF), written as the window exports write it: the exported columns as header row, then one row per row. */
export async function* csvPieces(columns: TableColumn[], pages: AsyncGenerator<ExportRow[]>) {
  const names = exportedColumns(columns).map((column) => column.name)
  yield { text: csvLine(names), rows: 0 }
  for await (const page of pages) {
    let text = ''
    for (const row of page) text += csvLine(names.map((name) => csvCell(row[name])))
    yield { text, rows: page.length }
  }
}

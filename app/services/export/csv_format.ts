import type { CsvCell } from '#services/export/csv_tables'

/**
 * One RFC 4180 field: quoted when it holds a comma, quote or line break, quotes doubled; null is an
 * empty cell, numbers as JavaScript prints them (csv-stringify's defaults, byte for byte).
 */
export function csvField(value: CsvCell | boolean | bigint | Date | undefined): string {
  // Most cells are numbers, which never need quoting.
  if (typeof value === 'number') return String(value)
  if (value === null || value === undefined) return ''
  let text: string
  if (typeof value === 'string') text = value
  else if (typeof value === 'boolean') text = value ? '1' : ''
  else if (value instanceof Date) text = String(value.getTime())
  else if (typeof value === 'object') text = JSON.stringify(value)
  else text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV line with its CRLF. */
export function csvLine(cells: ReadonlyArray<CsvCell>): string {
  let line = ''
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : ',') + csvField(cells[i])
  return `${line}\r\n`
}

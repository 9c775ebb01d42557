import { test } from '@japa/runner'
import { stringify } from 'csv-stringify/sync'
import { csvLine } from '#services/export/csv_format'
import type { CsvCell } from '#services/export/csv_tables'
import { ClockService } from '#services/clock_service'

/** Cells that exercise the rules csv-stringify and RFC 4180 share: separators, quotes, CRLF, empties, numbers. */
const ROWS: CsvCell[][] = [
  ['2026-01-02', 81, 7.25, 0, -3.5, null, 1e21, 0.1 + 0.2],
  ['plain', '', 'a,b', 'say "hi"', 'x', 'y', 'crlf\r\nend', ' padded '],
  ['"', ',', '""', 'ünïcödé ✓', '=SUM(A1)', '-12', 'tab\there', null],
]

test.group('CSV export | lines', () => {
  test('each line is byte for byte what csv-stringify writes with the export options', ({ assert }) => {
    const columns = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    const expected = stringify(ROWS, { header: true, columns, record_delimiter: '\r\n' })
    assert.equal(csvLine(columns) + ROWS.map((row) => csvLine(row)).join(''), expected)
  })

  test('a lone line feed or carriage return is quoted too (RFC 4180)', ({ assert }) => {
    assert.equal(csvLine(['line\nbreak', 'cr\rthere', 7]), '"line\nbreak","cr\rthere",7\r\n')
  })
})

test.group('Clock | dates', () => {
  test('window and todayIso agree with the luxon computation, across month and year ends', ({ assert }) => {
    const clock = new ClockService()
    const today = clock.today()
    assert.equal(clock.todayIso(), today.toISODate())
    for (const days of [1, 2, 7, 28, 31, 60, 365, 366, 1096]) {
      assert.deepEqual(clock.window(days), { from: today.minus({ days: days - 1 }).toISODate()!, to: today.toISODate()! })
    }
  })
})

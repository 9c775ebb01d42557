/** One day of a calendar heat-map: its column (week) and row (weekday, Monday first). */
export interface CalendarCell {
  date: string
  count: number
  /** 0 (no data) … 3 (the most records of the source). */
  level: 0 | 1 | 2 | 3
  week: number
  weekday: number
}

export interface Calendar {
  cells: CalendarCell[]
  weeks: number
  /** Where each month starts (its week column), for the labels above the grid. */
  months: Array<{ label: string; week: number }>
}

const DAY_MS = 86_400_000
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`)
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * The days `from` … `to` (ISO dates, inclusive) laid out like a wall calendar: one column per
 * week, Monday on top. `level` scales each day's count to the busiest day of the source.
 */
export function calendar(from: string, to: string, counts: Record<string, number>): Calendar {
  const start = utc(from)
  const days = Math.round((utc(to) - start) / DAY_MS) + 1
  const offset = (new Date(start).getUTCDay() + 6) % 7
  const max = Math.max(0, ...Object.values(counts))
  const cells: CalendarCell[] = []
  const months: Calendar['months'] = []
  for (let index = 0; index < days; index++) {
    const date = isoOf(start + index * DAY_MS)
    const count = counts[date] ?? 0
    const week = Math.floor((index + offset) / 7)
    const level = count === 0 ? 0 : (Math.max(1, Math.ceil((count / max) * 3)) as 1 | 2 | 3)
    cells.push({ date, count, level, week, weekday: (index + offset) % 7 })
    if (date.endsWith('-01') || index === 0) {
      const label = new Date(utc(date)).toLocaleString(undefined, { month: 'short', timeZone: 'UTC' })
      // A month starting in the last column of another leaves its label out rather than overlap.
      if (months.length === 0 || week - months[months.length - 1].week >= 3) months.push({ label, week })
      else if (date.endsWith('-01')) months[months.length - 1] = { label, week }
    }
  }
  return { cells, weeks: Math.floor((days - 1 + offset) / 7) + 1, months }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** `2026-03-12` → "12 Mar"; with `year` → "12 Mar 2026". Dates are calendar days: no time zone shift. */
export function shortDate(iso: string, year = false): string {
  const [y, m, d] = iso.split('-')
  const text = `${Number(d)} ${MONTHS[Number(m) - 1] ?? m}`
  return year ? `${text} ${y}` : text
}

/** `2026-03-12` → "Thu 12 Mar 2026". */
export function longDate(iso: string): string {
  const weekday = WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()]
  return `${weekday} ${shortDate(iso, true)}`
}

/** The month name of `2026-03-12`: "Mar". */
export function monthName(iso: string): string {
  return MONTHS[Number(iso.slice(5, 7)) - 1] ?? iso.slice(5, 7)
}

/** Whole calendar days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/** Milliseconds as people say them: "just now", "3 min ago", "5 h ago", "2 days ago". */
export function ago(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  const days = Math.floor(hours / 24)
  return `${days} day${days === 1 ? '' : 's'} ago`
}

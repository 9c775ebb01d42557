import { DateTime } from 'luxon'

/**
 * Options of a `@column.dateTime` stored as an ISO 8601 UTC instant with milliseconds
 * (`2026-03-15T06:00:00.123Z`) instead of the dialect's SQL format, which drops the milliseconds
 * on SQLite: analytics timestamps are returned to the millisecond as they were stored.
 */
export const isoInstant = {
  prepare: (value: DateTime | null) => (value ? value.toUTC().toISO() : value),
  consume: (value: string | Date | null) => (value ? DateTime.fromJSDate(new Date(value), { zone: 'utc' }) : value),
}

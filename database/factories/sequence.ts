import { DateTime } from 'luxon'

let counter = 0

/**
 * A distinct ISO date per call (walking back from 2019-12-31), so factory
 * rows never collide on a `(user_id, date)` key unless a test merges dates.
 */
export function nextFactoryDate(): string {
  counter += 1
  return DateTime.fromISO('2019-12-31').minus({ days: counter }).toISODate()!
}

/** `date` plus a wall-clock time, as local `YYYY-MM-DD HH:MM:SS`. */
export const localTime = (date: string, time: string) => `${date} ${time}`

/** The date `days` after an ISO date. */
export const plusDays = (date: string, days: number) => DateTime.fromISO(date).plus({ days }).toISODate()!

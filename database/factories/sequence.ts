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

/** Epoch milliseconds of a UTC date and time. */
export const epochMs = (date: string, time: string) => DateTime.fromISO(`${date}T${time}Z`).toMillis()

/**
 * Sets the attributes a test did not merge (undefined ones; a merged null
 * stays null). Factories use it in a `before('create')` hook to derive times
 * and series from the final date, so merging only `date` stays consistent.
 */
export function fillUnset<T extends object>(model: T, values: Partial<T>) {
  for (const [key, value] of Object.entries(values)) {
    if ((model as Record<string, unknown>)[key] === undefined) (model as Record<string, unknown>)[key] = value
  }
}

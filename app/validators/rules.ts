import vine from '@vinejs/vine'

/** `user_id` path segment (DESIGN §3: 1–100 chars of [A-Za-z0-9_.-]). */
export const USER_ID_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/
export const userIdRule = () => vine.string().regex(USER_ID_PATTERN)

/** Optional `days` query value; the upper bound differs per endpoint family. */
export const daysRule = (max: number) => vine.number().withoutDecimals().range([1, max]).optional()

/** A real calendar date `YYYY-MM-DD` (2026-02-30 fails). */
export const isoDateRule = () =>
  vine
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .use(realCalendarDate())

/** True when `YYYY-MM-DD` names a day of the calendar (2026-02-30 does not). */
export function isRealCalendarDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number)
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const realCalendarDate = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  if (!isRealCalendarDate(value)) field.report('The {{ field }} field must be a real calendar date', 'calendarDate', field)
})

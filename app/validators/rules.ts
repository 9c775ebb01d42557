import vine from '@vinejs/vine'
import type { FieldContext, SchemaTypes } from '@vinejs/vine/types'

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

/** Keys `request.validateUsing` adds beside the query string: never query parameters themselves. */
const REQUEST_PARTS = new Set(['params', 'headers', 'cookies'])

/** A FieldContext reporting under another top-level name (an object rule naming a parameter). */
function fieldNamed(field: FieldContext, name: string): FieldContext {
  return { ...field, name, wildcardPath: name, isArrayMember: false, getFieldPath: () => name }
}

/**
 * Checks of a whole /api/v1 request that no single field can make (runs before the fields):
 * - a parameter the route does not declare is a 422 listing the accepted ones, so a typo
 *   (`form=`) never silently answers the default window;
 * - `days` and a `from`/`to` range exclude each other; `to` needs `from`; `from` may not be after `to`.
 */
const apiRequest = vine.createRule((value, options: { accepted: string[] }, field) => {
  if (!value || typeof value !== 'object') return
  const input = value as Record<string, unknown>
  const accepted = options.accepted
  for (const name of Object.keys(input)) {
    if (REQUEST_PARTS.has(name) || accepted.includes(name)) continue
    const list = accepted.length > 0 ? `it accepts ${accepted.join(', ')}` : 'it accepts none'
    field.report(`Unknown parameter "${name}": ${list}`, 'unknownParameter', fieldNamed(field, name), { accepted })
  }
  if (!accepted.includes('from')) return
  const present = (name: string) => input[name] !== undefined && input[name] !== null && input[name] !== ''
  if (present('days') && (present('from') || present('to'))) {
    field.report('The days field cannot be combined with from or to: send either days or a from/to range', 'exclusive', fieldNamed(field, 'days'))
  } else if (present('to') && !present('from')) {
    field.report('The to field needs from: send from (to defaults to today) or days', 'requiredWith', fieldNamed(field, 'to'))
  }
  const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealCalendarDate(v)
  if (isDate(input.from) && isDate(input.to) && input.from > input.to) {
    field.report(`The from field (${input.from}) must not be after to (${input.to})`, 'dateRange', fieldNamed(field, 'from'))
  }
})

/**
 * The top-level object of every /api/v1 validator: its query parameters and `params` (path),
 * optionally `headers`. Any other query parameter is a 422 naming it and listing the accepted ones;
 * with `from`/`to` (windowRules) the range rules apply too. The one place these checks live.
 */
export function apiObject<Properties extends Record<string, SchemaTypes>>(properties: Properties) {
  const accepted = Object.keys(properties).filter((name) => !REQUEST_PARTS.has(name))
  return vine.object(properties).use(apiRequest({ accepted }))
}

/**
 * `days` (1–`maxDays`, the route's spec default applied by the caller) or an inclusive `from`/`to`
 * range of ISO dates in APP_TIMEZONE reaching any stored date. Used inside `apiObject`, which
 * rejects `days` with `from`/`to`, `to` without `from` and `from` after `to`.
 */
export const windowRules = (maxDays: number) => ({
  days: daysRule(maxDays),
  from: isoDateRule().optional(),
  to: isoDateRule().optional(),
})

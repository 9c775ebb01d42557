import vine from '@vinejs/vine'
import { isoDateRule } from '#validators/rules'

/** Date or date-time of a SleepWise event's `from`/`to` (only the date part is used). */
const dateOrDateTime = () => vine.string().trim().regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.+\-Z]*)?$/)

/**
 * A Polar webhook event (reference/polar-accesslink.md §12). Unknown fields are ignored; the
 * fields an event needs are checked by the intake service per event name.
 */
export const polarWebhookEventValidator = vine.create({
  event: vine.string().trim().regex(/^[A-Z_]{1,64}$/),
  user_id: vine.unionOfTypes([vine.number().withoutDecimals().positive(), vine.string().regex(/^\d{1,20}$/)]).optional(),
  date: isoDateRule().optional(),
  entity_id: vine.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  from: dateOrDateTime().optional(),
  to: dateOrDateTime().optional(),
  timestamp: vine.string().trim().maxLength(64).optional(),
  url: vine.string().trim().maxLength(2048).optional(),
})

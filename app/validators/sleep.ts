import vine from '@vinejs/vine'
import { daysRule, isoDateRule, userIdRule } from '#validators/rules'

/** GET /users/:user_id/sleep (days 1–365, default 7) */
export const listSleepValidator = vine.create({
  days: daysRule(365),
  params: vine.object({ user_id: userIdRule() }),
})

/** GET /users/:user_id/sleep/:date */
export const showSleepValidator = vine.create({
  params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
})

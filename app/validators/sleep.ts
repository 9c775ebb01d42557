import vine from '@vinejs/vine'
import { daysRule, userIdRule } from '#validators/rules'

/** GET /users/:user_id/sleep */
export const listSleepValidator = vine.create({
  days: daysRule(365),
  params: vine.object({ user_id: userIdRule() }),
})

import vine from '@vinejs/vine'
import { daysRule, userIdRule } from '#validators/rules'

/** Every export route: `days` 1–365, default 30. */
export const exportValidator = vine.create({
  days: daysRule(365),
  params: vine.object({ user_id: userIdRule() }),
})

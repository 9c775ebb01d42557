import vine from '@vinejs/vine'
import { daysRule, isoDateRule, userIdRule } from '#validators/rules'

/** GET /users/:user_id/activity-samples: `days` 1–30 (a day is 1 440 minutes). */
export const listActivitySamplesValidator = vine.create({
  days: daysRule(30),
  params: vine.object({ user_id: userIdRule() }),
})

/** GET /users/:user_id/activity-samples/:date */
export const showActivitySamplesValidator = vine.create({
  params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
})

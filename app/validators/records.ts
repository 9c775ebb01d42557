import vine from '@vinejs/vine'
import { daysRule, isoDateRule, userIdRule } from '#validators/rules'

const userParams = () => vine.object({ user_id: userIdRule() })

/** Raw-data lists with `days` 1–365 (activity, recharge, exercises, cardio load, heart rate, biosensing). */
export const listRecordsValidator = vine.create({
  days: daysRule(365),
  params: userParams(),
})

/** SleepWise lists: `days` 1–30. */
export const listSleepwiseValidator = vine.create({
  days: daysRule(30),
  params: userParams(),
})

/** GET /users/:user_id/activity/:date */
export const showActivityValidator = vine.create({
  params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
})

/** GET /users/:user_id/exercises/:id — our integer row id. */
export const showExerciseValidator = vine.create({
  params: vine.object({
    user_id: userIdRule(),
    id: vine.number().withoutDecimals().range([1, Number.MAX_SAFE_INTEGER]),
  }),
})

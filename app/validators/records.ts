import vine from '@vinejs/vine'
import { apiObject, isoDateRule, userIdRule, windowRules } from '#validators/rules'
import { paginationRules } from '#validators/pagination'

const userParams = () => vine.object({ user_id: userIdRule() })

/**
 * Raw-data lists with `days` 1–365 or a `from`/`to` range (activity, recharge, exercises, cardio
 * load, heart rate, biosensing), `limit`/`cursor` pages.
 */
export const listRecordsValidator = vine.create(
  apiObject({
    ...windowRules(365),
    ...paginationRules(),
    params: userParams(),
  })
)

/** SleepWise lists: `days` 1–30 or a `from`/`to` range, `limit`/`cursor` pages. */
export const listSleepwiseValidator = vine.create(
  apiObject({
    ...windowRules(30),
    ...paginationRules(),
    params: userParams(),
  })
)

/** GET /users/:user_id/activity/:date */
export const showActivityValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
  })
)

/** GET /users/:user_id/exercises/:id — our integer row id. */
export const showExerciseValidator = vine.create(
  apiObject({
    params: vine.object({
      user_id: userIdRule(),
      id: vine.number().withoutDecimals().range([1, Number.MAX_SAFE_INTEGER]),
    }),
  })
)

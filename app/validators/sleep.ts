import vine from '@vinejs/vine'
import { apiObject, isoDateRule, userIdRule, windowRules } from '#validators/rules'
import { paginationRules } from '#validators/pagination'

/** GET /users/:user_id/sleep (days 1–365, default 7, or a `from`/`to` range; `limit`/`cursor` pages) */
export const listSleepValidator = vine.create(
  apiObject({
    ...windowRules(365),
    ...paginationRules(),
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** GET /users/:user_id/sleep/:date */
export const showSleepValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
  })
)

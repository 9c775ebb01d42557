import vine from '@vinejs/vine'
import { apiObject, isoDateRule, userIdRule, windowRules } from '#validators/rules'
import { paginationRules } from '#validators/pagination'

/**
 * GET /users/:user_id/activity-samples: `days` 1–30 (a day is 1 440 minutes) or a `from`/`to`
 * range, `limit`/`cursor` pages.
 */
export const listActivitySamplesValidator = vine.create(
  apiObject({
    ...windowRules(30),
    ...paginationRules(),
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** GET /users/:user_id/activity-samples/:date */
export const showActivitySamplesValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
  })
)

import vine from '@vinejs/vine'
import { apiObject, isoDateRule, userIdRule } from '#validators/rules'

/** GET /users/:user_id/heart-rate/:date/samples */
export const showHeartRateSamplesValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), date: isoDateRule() }),
  })
)

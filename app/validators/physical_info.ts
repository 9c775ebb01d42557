import vine from '@vinejs/vine'
import { apiObject, userIdRule } from '#validators/rules'

/** GET /users/:user_id/physical-info (no `days`: the whole, small history). */
export const showPhysicalInfoValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule() }),
  })
)

import vine from '@vinejs/vine'
import { apiObject, userIdRule } from '#validators/rules'
import { paginationRules } from '#validators/pagination'

/** DELETE /users/:user_id (erasure). */
export const deleteUserValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** GET /users (discovery): `limit` 1–1000 (default 50) and `cursor`. */
export const listUsersValidator = vine.create(
  apiObject({
    ...paginationRules(),
  })
)

/** GET /users/:user_id. */
export const showUserValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule() }),
  })
)

import vine from '@vinejs/vine'
import { userIdRule } from '#validators/rules'

/** DELETE /users/:user_id (erasure). */
export const deleteUserValidator = vine.create({
  params: vine.object({ user_id: userIdRule() }),
})

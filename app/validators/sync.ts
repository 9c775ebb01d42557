import vine from '@vinejs/vine'
import { daysRule, userIdRule } from '#validators/rules'

/**
 * POST /users/:user_id/sync/trigger. `X-Provider-Token` is optional here so that a missing header
 * is the contract's 400 (raised by the service), not a 422.
 */
export const triggerSyncValidator = vine.create({
  days: daysRule(365),
  params: vine.object({ user_id: userIdRule() }),
  headers: vine.object({ 'x-provider-token': vine.string().trim().maxLength(4096).optional() }),
})

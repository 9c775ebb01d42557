import vine from '@vinejs/vine'
import { apiObject, userIdRule } from '#validators/rules'
import { paginationRules } from '#validators/pagination'

/**
 * `days` may not exceed the caller's own maximum, given as `meta.maxDays` (a user-scoped API key:
 * SYNC_DAYS). Reported like every range error: 422, field `days`, rule `max`, the maximum in the message.
 */
const callerMaxDays = vine.createRule((value, _options, field) => {
  const max = field.meta.maxDays
  if (typeof value !== 'number' || typeof max !== 'number' || value <= max) return
  field.report('The {{ field }} field must not be greater than {{ max }} for a user-scoped API key', 'max', field, { max })
})

/**
 * POST /users/:user_id/sync/trigger. `X-Provider-Token` is optional here so that a missing header
 * is the contract's 400 (raised by the service), not a 422. `meta.maxDays` is the caller's limit
 * (see `maxTriggerDays`).
 */
export const triggerSyncValidator = vine.withMetaData<{ maxDays: number }>().create(
  apiObject({
    days: vine.number().withoutDecimals().range([1, 365]).use(callerMaxDays()).optional(),
    /** `false`: queue the sync and answer 202 with the run's `Location` at once. */
    wait: vine.boolean().optional(),
    params: vine.object({ user_id: userIdRule() }),
    headers: vine.object({ 'x-provider-token': vine.string().trim().maxLength(4096).optional() }),
  })
)

/** GET /users/:user_id/sync/runs: newest first, `limit` 1–1000 (default 50) and `cursor`. */
export const syncRunsValidator = vine.create(
  apiObject({
    ...paginationRules(),
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** GET /users/:user_id/sync/runs/:run_id. */
export const syncRunValidator = vine.create(
  apiObject({
    params: vine.object({
      user_id: userIdRule(),
      run_id: vine.number().withoutDecimals().range([1, Number.MAX_SAFE_INTEGER]),
    }),
  })
)

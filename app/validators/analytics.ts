import vine from '@vinejs/vine'
import { apiObject, userIdRule } from '#validators/rules'

/**
 * Metric and pattern names are accepted as any short string here: an unknown name is a 404
 * listing the valid names (DESIGN §3), decided by the service, not a 422.
 */
const nameRule = () => vine.string().maxLength(100)

/** Routes with only `{user_id}`: baselines, calculate, anomalies, status, patterns, detect, insights. */
export const userAnalyticsValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** GET /users/:user_id/baselines/:metric_name */
export const showBaselineValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), metric_name: nameRule() }),
  })
)

/** GET /users/:user_id/baselines/check/:metric_name/:value (a finite number, else 422). */
export const checkBaselineValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), metric_name: nameRule(), value: vine.number() }),
  })
)

/** GET /users/:user_id/patterns/:pattern_name */
export const showPatternValidator = vine.create(
  apiObject({
    params: vine.object({ user_id: userIdRule(), pattern_name: nameRule() }),
  })
)

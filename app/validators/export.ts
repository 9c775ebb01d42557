import vine from '@vinejs/vine'
import { DATA_TYPE_KEYS } from '#services/records/data_types'
import { apiObject, userIdRule, windowRules } from '#validators/rules'
import { paginationRules } from '#validators/pagination'

/** GET /users/:user_id/export/summary: `days` 1–365 (default 30) or a `from`/`to` range. */
export const exportSummaryValidator = vine.create(
  apiObject({
    ...windowRules(365),
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** The CSV exports: `days` 1–365 (default 30) or a `from`/`to` range, `limit`/`cursor` pages. */
export const exportValidator = vine.create(
  apiObject({
    ...windowRules(365),
    ...paginationRules(),
    params: vine.object({ user_id: userIdRule() }),
  })
)

/**
 * GET /users/:user_id/export/:type.jsonl: a catalogued data type's key, `days` 1–365 (default 30)
 * or a `from`/`to` range, `limit`/`cursor` pages.
 */
export const jsonlExportValidator = vine.create(
  apiObject({
    ...windowRules(365),
    ...paginationRules(),
    params: vine.object({ user_id: userIdRule(), type: vine.enum(DATA_TYPE_KEYS) }),
  })
)

/** GET /users/:user_id/export/takeout?raw= (the whole history; `raw` adds the raw-payload archive). */
export const takeoutValidator = vine.create(
  apiObject({
    raw: vine.boolean().optional(),
    params: vine.object({ user_id: userIdRule() }),
  })
)

/** GET /admin/users/:user/takeout?raw=: the same takeout for a logged-in admin. */
export const adminTakeoutValidator = vine.create({
  raw: vine.boolean().optional(),
  params: vine.object({ user: userIdRule() }),
})

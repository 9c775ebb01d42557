import vine from '@vinejs/vine'
import { DATA_TYPE_KEYS } from '#services/records/data_types'
import { daysRule, userIdRule } from '#validators/rules'

/** Every export route: `days` 1–365, default 30. */
export const exportValidator = vine.create({
  days: daysRule(365),
  params: vine.object({ user_id: userIdRule() }),
})

/** GET /users/:user_id/export/:type.jsonl: a catalogued data type's key, `days` 1–365 (default 30). */
export const jsonlExportValidator = vine.create({
  days: daysRule(365),
  params: vine.object({ user_id: userIdRule(), type: vine.enum(DATA_TYPE_KEYS) }),
})

/** GET /users/:user_id/export/takeout?raw= (the whole history; `raw` adds the raw-payload archive). */
export const takeoutValidator = vine.create({
  raw: vine.boolean().optional(),
  params: vine.object({ user_id: userIdRule() }),
})

/** GET /admin/users/:user/takeout?raw=: the same takeout for a logged-in admin. */
export const adminTakeoutValidator = vine.create({
  raw: vine.boolean().optional(),
  params: vine.object({ user: userIdRule() }),
})

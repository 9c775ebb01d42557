import vine from '@vinejs/vine'
import { MAX_PAGE_LIMIT, decodeCursor } from '#services/api/pagination'

/** A cursor this server issued (base64url JSON; anything else is a 422 naming `cursor`). */
const issuedCursor = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  if (!decodeCursor(value)) field.report('The {{ field }} field must be a cursor from a Link header of this API', 'cursor', field)
})

/** Validator fields of a paginated list: `limit` (1–1000) and `cursor` (decoded by `pageRequest`). */
export const paginationRules = () => ({
  limit: vine.number().withoutDecimals().range([1, MAX_PAGE_LIMIT]).optional(),
  cursor: vine.string().use(issuedCursor()).optional(),
})


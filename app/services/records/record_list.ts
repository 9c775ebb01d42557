import type { LucidModel, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import { errors as vineErrors } from '@vinejs/vine'
import { optionalPageRequest, type CursorKey, type PageCursor, type PageRequest } from '#services/api/pagination'
import { columnOf } from '#services/records/columns'
import { windowInput, type WindowInput } from '#services/records/record_window'

/** What a list route asks a record service for: the window and, with `limit`/`cursor`, a page. */
export interface ListRequest {
  window: WindowInput
  /** Null: the whole window in one answer (the behaviour without `limit`). */
  page: PageRequest | null
}

/** A list answer: its rows, the next page's cursor and the window's row count (both only when paged). */
export interface RecordList<T> {
  rows: T[]
  next: PageCursor | null
  total: number | null
}

/** One ordering attribute of a list (the row id always comes last, as the tie-break). */
export interface ListOrder {
  attribute: string
  direction: 'asc' | 'desc'
}

/** A cursor that does not fit the list it was sent to (another list's, or hand-made): a 422 on `cursor`. */
export function invalidCursor(): Error {
  return new vineErrors.E_VALIDATION_ERROR([
    { field: 'cursor', rule: 'cursor', message: 'The cursor field must be a cursor from a Link header of this list' },
  ])
}

/**
 * `(a, b, id)` strictly after `(va, vb, vid)` in the list's order, as a keyset condition:
 * `a ▷ va OR (a = va AND b ▷ vb) OR (a = va AND b = vb AND id ▷ vid)`, ▷ being < or > by direction.
 */
export function whereAfter(
  query: { where: (callback: (q: any) => void) => unknown },
  keys: Array<{ column: string; direction: 'asc' | 'desc' }>,
  values: Array<string | number>
) {
  query.where((outer) => {
    keys.forEach((key, i) => {
      outer.orWhere((and: any) => {
        for (let j = 0; j < i; j++) and.where(keys[j].column, values[j])
        and.where(key.column, key.direction === 'desc' ? '<' : '>', values[i])
      })
    })
  })
}

/**
 * Runs a list query the same way for every data list: the user's rows whose `date` lies in
 * `[from, to]`, ordered by `order` then row id (a stable order, so a keyset walk returns every row
 * once). Without a page, the whole window as before. With one: `limit + 1` rows after the cursor
 * (the extra one only says a next page exists) and the window's count for `X-Total-Count`.
 * The query must select `id` and the ordering attributes.
 */
export async function listWindow<Model extends LucidModel, Row>(
  query: ModelQueryBuilderContract<Model, Row>,
  spec: { model: Model; date: string; order: ListOrder[]; range: { from: string; to: string }; page: PageRequest | null }
): Promise<RecordList<Row>> {
  const { model, order, range, page } = spec
  query.whereBetween(columnOf<LucidModel>(model, spec.date), [range.from, range.to])
  const keys = [...order, { attribute: 'id', direction: order[0]?.direction ?? 'desc' } as ListOrder].map((key) => ({
    ...key,
    column: columnOf<LucidModel>(model, key.attribute),
  }))
  const total = page ? await countOf(query) : null
  for (const key of keys) query.orderBy(key.column, key.direction)
  if (!page) return { rows: await query, next: null, total: null }

  if (page.after !== null) {
    const key = page.key ?? []
    if (key.length !== order.length) throw invalidCursor()
    whereAfter(query, keys, [...key, page.after])
  }
  const rows = await query.limit(page.limit + 1)
  if (rows.length <= page.limit) return { rows, next: null, total }
  const pageRows = rows.slice(0, page.limit)
  const last = pageRows[pageRows.length - 1] as Record<string, unknown>
  const next: PageCursor = { after: Number(last.id), key: order.map((o) => last[o.attribute] as CursorKey[number]) }
  return { rows: pageRows, next, total }
}

/** Rows of the query's filter (its selects and order left out). */
async function countOf(query: ModelQueryBuilderContract<any, any>): Promise<number> {
  const [row] = await query.clone().clearSelect().clearOrder().pojo<{ total: number | string }>().count('* as total')
  return Number(row?.total ?? 0)
}

/** The order of the one-row-per-day lists: newest date first. */
export const NEWEST_DATE_FIRST: ListOrder[] = [{ attribute: 'date', direction: 'desc' }]

/** A validated list query (`days` or `from`/`to`, `limit`/`cursor`) as a ListRequest; `defaultDays` is the route's spec default. */
export function listRequest(
  query: { days?: number | null; from?: string | null; to?: string | null; limit?: number; cursor?: string },
  defaultDays: number
): ListRequest {
  return { window: windowInput(query, defaultDays), page: optionalPageRequest(query) }
}

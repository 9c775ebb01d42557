import type { HttpContext } from '@adonisjs/core/http'

/** `limit` of a paginated list: 1–1000. */
export const MAX_PAGE_LIMIT = 1000

/** Rows of a page when the caller sends no `limit` (lists that were not paginated before). */
export const DEFAULT_PAGE_LIMIT = 50

/** Values of the ordering columns before the row id (a date, a local time, an epoch), for keyset walks. */
export type CursorKey = Array<string | number>

/**
 * Position after the last row of a page: the row id of a keyset walk and, for lists ordered by a
 * date or time first, that row's ordering values (`key`). Served as an opaque string (base64url of
 * a small JSON object, so the format may grow without breaking clients).
 */
export interface PageCursor {
  after: number
  key?: CursorKey
}

export function encodeCursor(cursor: PageCursor): string {
  const body = cursor.key ? { v: 1, after: cursor.after, k: cursor.key } : { v: 1, after: cursor.after }
  return Buffer.from(JSON.stringify(body)).toString('base64url')
}

const isKeyValue = (value: unknown) =>
  (typeof value === 'string' && value.length <= 64) || (typeof value === 'number' && Number.isFinite(value))

/** The cursor a client sent back, or null when it is not one this server issued. */
export function decodeCursor(value: string): PageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(value)) return null
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
    if (parsed?.v !== 1 || !Number.isSafeInteger(parsed.after) || parsed.after < 0) return null
    if (parsed.k === undefined) return { after: parsed.after }
    if (!Array.isArray(parsed.k) || parsed.k.length > 4 || !parsed.k.every(isKeyValue)) return null
    return { after: parsed.after, key: parsed.k }
  } catch {
    return null
  }
}

/** What a list service needs: how many rows, after which row id (and ordering values). */
export interface PageRequest {
  limit: number
  after: number | null
  /** Ordering values of the cursor's row; null for an id-ordered walk or the first page. */
  key: CursorKey | null
}

export function pageRequest(input: { limit?: number; cursor?: string }, defaultLimit = DEFAULT_PAGE_LIMIT): PageRequest {
  const cursor = input.cursor ? decodeCursor(input.cursor) : null
  return { limit: input.limit ?? defaultLimit, after: cursor?.after ?? null, key: cursor?.key ?? null }
}

/**
 * The page of a list that keeps its whole answer without `limit` (the data lists and exports): null
 * when neither `limit` nor `cursor` is sent (today's behaviour), else a page (`limit` defaults to
 * DEFAULT_PAGE_LIMIT when only a cursor is sent).
 */
export function optionalPageRequest(input: { limit?: number; cursor?: string }): PageRequest | null {
  if (input.limit === undefined && input.cursor === undefined) return null
  return pageRequest(input)
}

/** One page of rows, and the cursor of the next page when more rows exist. */
export interface Page<T> {
  rows: T[]
  next: PageCursor | null
}

/**
 * Cuts a keyset query's answer (fetched with `limit + 1` rows) into a page: the extra row only says
 * that a next page exists.
 */
export function toPage<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { rows, next: null }
  const pageRows = rows.slice(0, limit)
  return { rows: pageRows, next: { after: pageRows[pageRows.length - 1].id } }
}

/**
 * Sets the RFC 8288 `Link: <…>; rel="next"` header when a next page exists: the request's own URL
 * and query with `cursor` replaced (so `limit` and filters carry over).
 */
export function linkNextPage(ctx: Pick<HttpContext, 'request' | 'response'>, next: PageCursor | null): void {
  if (!next) return
  const url = new URL(ctx.request.url(true), 'http://local')
  url.searchParams.set('cursor', encodeCursor(next))
  ctx.response.header('Link', `<${url.pathname}${url.search}>; rel="next"`)
}

/**
 * The headers of a paged list or export: `Link: rel="next"` when more rows exist and
 * `X-Total-Count` (rows of the whole window) when the answer is paged at all.
 */
export function pageHeaders(ctx: Pick<HttpContext, 'request' | 'response'>, page: { next: PageCursor | null; total: number | null }): void {
  linkNextPage(ctx, page.next)
  if (page.total !== null) ctx.response.header('X-Total-Count', String(page.total))
}

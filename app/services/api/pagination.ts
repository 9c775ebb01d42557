import type { HttpContext } from '@adonisjs/core/http'

/** `limit` of a paginated list: 1–1000. */
export const MAX_PAGE_LIMIT = 1000

/** Rows of a page when the caller sends no `limit` (lists that were not paginated before). */
export const DEFAULT_PAGE_LIMIT = 50

/**
 * Position after the last row of a page: the row id of a keyset walk. Served as an opaque string
 * (base64url of a small JSON object, so the format may grow without breaking clients).
 */
export interface PageCursor {
  after: number
}

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, after: cursor.after })).toString('base64url')
}

/** The cursor a client sent back, or null when it is not one this server issued. */
export function decodeCursor(value: string): PageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) return null
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
    if (parsed?.v !== 1 || !Number.isSafeInteger(parsed.after) || parsed.after < 0) return null
    return { after: parsed.after }
  } catch {
    return null
  }
}

/** What a list service needs: how many rows, after which row id. */
export interface PageRequest {
  limit: number
  after: number | null
}

export function pageRequest(input: { limit?: number; cursor?: string }, defaultLimit = DEFAULT_PAGE_LIMIT): PageRequest {
  return { limit: input.limit ?? defaultLimit, after: input.cursor ? (decodeCursor(input.cursor)?.after ?? null) : null }
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

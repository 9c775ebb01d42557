import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'

/** Cache-Control of every answer the read cache serves: the client may keep it, and asks again with its ETag. */
export const READ_CACHE_CONTROL = 'private, no-cache'

/**
 * The key of a user's read: their id and data version, today's date (windows end today) and the
 * request target exactly as sent, so an entry is always the answer the handler would compute now.
 */
export function readCacheKey(user: { id: number; version: number }, today: string, url: string): string {
  return `${user.id}|${user.version}|${today}|${url}`
}

/** A response body as sent (UTF-8 bytes, written to the socket as they are), with the headers that describe it. */
export interface CachedResponse {
  body: Buffer
  /** Strong validator of the body (quoted, RFC 9110). */
  etag: string
  headers: Record<string, string>
}

/**
 * In-process cache of read responses, bounded in bytes (least recently used
 * entries go first). Keys carry the user's data version (DataVersionService),
 * so entries are never invalidated: a write makes new keys and the old ones
 * age out. Every process keeps its own; none can serve another's stale data.
 */
export class ResponseCache {
  #entries: LRUCache<string, CachedResponse> | null

  /** `maxBytes` 0 disables the cache; `maxEntryBytes` bounds one body (larger ones are never kept). */
  constructor(
    maxBytes: number,
    readonly maxEntryBytes = Math.max(1, Math.floor(maxBytes / 8))
  ) {
    this.#entries =
      maxBytes > 0
        ? new LRUCache<string, CachedResponse>({
            maxSize: maxBytes,
            maxEntrySize: maxEntryBytes,
            // The body's bytes, plus the key (UTF-16) and headers.
            sizeCalculation: (entry, key) => entry.body.length + 2 * key.length + 256,
          })
        : null
  }

  get enabled() {
    return this.#entries !== null
  }

  get(key: string): CachedResponse | undefined {
    return this.#entries?.get(key)
  }

  /** Whether an entry is held under the key (its recency unchanged). */
  has(key: string): boolean {
    return this.#entries?.has(key) ?? false
  }

  /** Stores a body (when it fits) and returns it with its ETag either way. */
  set(key: string, body: Buffer, headers: Record<string, string>): CachedResponse {
    const entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, headers }
    // The LRU itself refuses an entry over maxEntryBytes.
    this.#entries?.set(key, entry)
    return entry
  }

  clear() {
    this.#entries?.clear()
  }

  /**
   * Drops every entry of one user (ReadCacheMiddleware keys start with `<users.id>|`), so an erased
   * user's answers leave this process's memory at once instead of ageing out.
   */
  forgetUser(userId: number) {
    if (!this.#entries) return
    const prefix = `${userId}|`
    for (const key of [...this.#entries.keys()]) if (key.startsWith(prefix)) this.#entries.delete(key)
  }
}

import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import Negotiator from 'negotiator'
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
  /**
   * The body gzip-compressed, with its own validator (a strong ETag differs per content coding),
   * made on the first request that accepts gzip and kept with the entry; null when not worth it.
   */
  gzip?: EncodedBody | null
}

/** A representation of a cached answer as one request gets it. */
export interface EncodedBody {
  body: Buffer
  etag: string
  /** `Content-Encoding`, when not the identity. */
  encoding?: 'gzip'
}

/** Bodies below this are sent as they are: gzip's framing and the client's work outweigh the bytes saved. */
export const MIN_GZIP_BYTES = 1024

/** `Vary` of every answer the read cache serves: its body depends on the request's Accept-Encoding. */
export const READ_CACHE_VARY = 'Accept-Encoding'

/** Accept-Encoding values already negotiated (clients send the same few): whether gzip is preferred. */
const gzipAccepted = new Map<string, boolean>()

/** Whether an `Accept-Encoding` header prefers gzip to the identity (RFC 9110 §12.5.3, q-values honoured). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false
  const value = Array.isArray(header) ? header.join(', ') : header
  let accepted = gzipAccepted.get(value)
  if (accepted === undefined) {
    accepted = new Negotiator({ headers: { 'accept-encoding': value } }).encoding(['gzip', 'identity']) === 'gzip'
    if (gzipAccepted.size >= 256) gzipAccepted.clear()
    gzipAccepted.set(value, accepted)
  }
  return accepted
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
            sizeCalculation: entrySize,
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

  /**
   * The representation of a held answer for a request's `Accept-Encoding`: the body gzip-compressed
   * when the client prefers gzip and that saves at least a fifth of a body of 1 kB or more
   * (compressed once, on the first such request, and kept with the entry within the entry limit),
   * else the body as it is.
   */
  representation(key: string, entry: CachedResponse, acceptEncoding: string | string[] | undefined): EncodedBody {
    if (!acceptsGzip(acceptEncoding)) return entry
    if (entry.gzip === undefined) {
      entry.gzip = this.#gzipped(entry, key)
      // Stored again as a new object: the LRU counts a replaced value's size again, not an updated one's.
      if (entry.gzip && this.#entries?.peek(key) === entry) this.#entries.set(key, { ...entry })
    }
    return entry.gzip ?? entry
  }

  /** The body compressed, when it is large enough, saves a fifth and still fits the entry limit. */
  #gzipped(entry: CachedResponse, key: string): EncodedBody | null {
    if (entry.body.length < MIN_GZIP_BYTES || entrySize(entry, key) >= this.maxEntryBytes) return null
    const body = gzipSync(entry.body)
    if (body.length > entry.body.length * 0.8) return null
    const gzip = { body, etag: `${entry.etag.slice(0, -1)}-gzip"`, encoding: 'gzip' as const }
    return entrySize({ ...entry, gzip }, key) <= this.maxEntryBytes ? gzip : null
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

/** An entry's share of the cache: its bodies, plus the key (UTF-16) and headers. */
function entrySize(entry: CachedResponse, key: string): number {
  return entry.body.length + (entry.gzip?.body.length ?? 0) + 2 * key.length + 256
}

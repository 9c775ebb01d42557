import { Transform, pipeline, type Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { ClockService } from '#services/clock_service'
import { DataVersionService } from '#services/data_version_service'
import { READ_CACHE_CONTROL, READ_CACHE_VARY, ResponseCache, readCacheKey, type CachedResponse } from '#services/response_cache'
import { USER_ID_PATTERN } from '#validators/rules'

/** Response headers kept with a cached body (the rest are per request: rate limits, request id). */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'link', 'x-total-count']

/**
 * Answers repeated GETs of a user's data from ResponseCache. The key is the
 * user's data version (bumped in the same transaction as every write of their
 * data), today's date in APP_TIMEZONE (windows end today) and the full URL, so
 * a cached answer is always the one the handler would compute now. Every
 * answer carries an ETag; `If-None-Match` gets 304. JSON bodies and CSV
 * streams up to the cache's entry limit are kept; errors never are. Runs after
 * authentication and the rate limiter, so a hit is still counted. Most hits never get here:
 * ReadFastPath answers them before the pipeline, from the entries this middleware stored.
 */
@inject()
export default class ReadCacheMiddleware {
  constructor(
    protected cache: ResponseCache,
    protected versions: DataVersionService,
    protected clock: ClockService
  ) {}

  async handle(ctx: HttpContext, next: NextFn) {
    // HEAD gets GET's headers (ETag included) and shares its entries: the body is the same, Node drops it.
    const method = ctx.request.method()
    if (!this.cache.enabled || (method !== 'GET' && method !== 'HEAD') || typeof ctx.params.user_id !== 'string') return next()
    // A malformed id (a NUL byte is an error in PostgreSQL) is never looked up: the handler's
    // validator answers the 422; an unknown user falls through to the handler's 404.
    if (!USER_ID_PATTERN.test(ctx.params.user_id)) return next()
    const user = await this.versions.current(ctx.params.user_id)
    if (!user) return next()

    const key = readCacheKey(user, this.clock.todayIso(), ctx.request.request.url ?? '/')
    const hit = this.cache.get(key)
    if (hit) return this.reply(ctx, key, hit)

    await next()
    const response = ctx.response
    if (response.getStatus() !== 200) return
    if (response.hasContent) {
      const body = response.getBody()
      if (body === null || typeof body !== 'object') {
        // A body the handler serialized itself (sendJson) comes with its content type.
        if (typeof body !== 'string' || !response.getHeader('content-type')) return
      }
      // A JSON flavour the handler chose (application/geo+json) is kept with the body, as are a page's Link and X-Total-Count.
      const headers = keptHeaders(response)
      headers['content-type'] ??= 'application/json; charset=utf-8'
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body))
      this.reply(ctx, key, this.cache.set(key, bytes, headers))
    } else if (response.lazyBody.stream) {
      this.keepStream(ctx, key)
    }
  }

  /**
   * Sends a cached (or just computed) body in the content coding the client prefers, with its
   * validator; 304 when the client has it.
   */
  protected reply({ request, response }: HttpContext, key: string, entry: CachedResponse) {
    const sent = this.cache.representation(key, entry, request.header('accept-encoding'))
    response.header('ETag', sent.etag)
    response.header('Cache-Control', READ_CACHE_CONTROL)
    response.append('Vary', READ_CACHE_VARY)
    if (response.fresh()) {
      response.status(304)
      response.send(null, false)
      return
    }
    for (const [name, value] of Object.entries(entry.headers)) response.header(name, value)
    if (sent.encoding) response.header('Content-Encoding', sent.encoding)
    response.send(sent.body, false)
  }

  /** Streams as before and keeps the bytes when the stream ends cleanly within the entry limit. */
  protected keepStream({ response }: HttpContext, key: string) {
    const [source, onError] = response.lazyBody.stream!
    const headers = keptHeaders(response)
    const chunks: Buffer[] = []
    let bytes = 0
    const cache = this.cache
    const collector = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (bytes <= cache.maxEntryBytes) {
          bytes += chunk.length
          chunks.push(chunk)
        }
        callback(null, chunk)
      },
      flush(callback) {
        if (bytes <= cache.maxEntryBytes) cache.set(key, Buffer.concat(chunks), headers)
        callback()
      },
    })
    response.stream(
      // The cast names Node's stream type for the UI's type check too (DOM's ReadableStream there).
      pipeline(source as Readable, collector, () => {}),
      onError
    )
  }
}

/** The kept headers the handler set, by lower-case name. */
function keptHeaders(response: HttpContext['response']): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name of KEPT_HEADERS) {
    const value = response.getHeader(name)
    if (value !== undefined) headers[name] = String(value)
  }
  return headers
}

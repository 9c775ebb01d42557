import { randomUUID } from 'node:crypto'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import fresh from 'fresh'
import app from '@adonisjs/core/services/app'
import { securityHeaders } from '#services/security_headers'
import { ApiKeyService } from '#services/auth/api_key_service'
import { ClockService } from '#services/clock_service'
import { DataVersionService, type UserDataVersion } from '#services/data_version_service'
import { HealthProbeService } from '#services/health_probe_service'
import { perTurn } from '#services/coalesced_calls'
import {
  PROCESS_COUNTING,
  RateLimitService,
  apiKeySubject,
  apiRequestPolicy,
  countedAhead,
} from '#services/rate_limit_service'
import { renderedRead } from '#services/rendered_reads'
import { READ_CACHE_CONTROL, READ_CACHE_VARY, ResponseCache, readCacheKey, type CachedResponse } from '#services/response_cache'
import { USER_ID_PATTERN } from '#validators/rules'

/** `/api/v1/users/{user_id}/…`: the data reads ReadCacheMiddleware keeps. */
const USER_READ_PATH = /^\/api\/v1\/users\/([^/?]+)\//

const JSON_TYPE = 'application/json; charset=utf-8'

/** Users whose last answered version is remembered (a hint only; the map starts over beyond this). */
const MAX_REMEMBERED_USERS = 10_000

/** The request's own X-Request-Id, else a new one, as the framework answers it (config/app.ts generateRequestId). */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && given ? given : randomUUID()
}

/**
 * Answers the kinds of request that dominate a read-heavy server before the framework's
 * pipeline (context, router, middleware chain) is built for them: `GET /health`, a `GET` of a
 * user's data whose answer ReadCacheMiddleware already holds for the user's current data version,
 * and a `GET` whose whole answer the database renders in one statement (`rendered_reads.ts`: the
 * whole-window sleep list and sleep.csv, the insights), kept in the cache as the middleware keeps
 * a computed answer (or, with the cache off, sent as the pipeline sends it, without a validator).
 * Each step is the one the pipeline runs, through the same services: the API key's identity
 * (ApiKeyService, only when this process checked the key moments ago), its scope, the per-key
 * budget (RateLimitService, so every answer is counted exactly once), the data version read from
 * the database (DataVersionService, so an answer is never older than the data) and the cached
 * entry under the same key, with the same headers and `If-None-Match` handling.
 *
 * Whatever it cannot answer exactly as the pipeline would goes to the pipeline untouched: a cache
 * miss, HEAD, a request with `Origin` (CORS), no or an unknown key, a key out of scope, a spent
 * budget (the pipeline counts it again, which changes nothing once it is spent, or takes the count
 * made here, and answers the 429), the database failing.
 */
export class ReadFastPath {
  /**
   * The clock and the health probe are resolved from the container, as the pipeline resolves a
   * middleware's or controller's (a clock pinned by a test is the one both read); the clock once
   * per event-loop turn, shared by that turn's requests (the resolution was 6–10 % of a cached
   * answer). The cache, the version reads and the rate limiter are the process's own.
   */
  protected make = app.container.make.bind(app.container)

  /** The container's clock, resolved once per event-loop turn for the requests read in it. */
  protected clock = perTurn(() => this.make(ClockService))

  /**
   * The data version each user's last answer from the cache was read under. Only a hint for
   * whether to count a request before its own version read has returned; never used to answer.
   */
  protected answeredVersions = new Map<string, UserDataVersion>()

  constructor(
    protected cache: ResponseCache,
    protected versions: DataVersionService,
    protected rateLimits: RateLimitService
  ) {}

  /** The fast path of the booted application. */
  static async create(): Promise<ReadFastPath> {
    const make = app.container.make.bind(app.container)
    return new ReadFastPath(await make(ResponseCache), await make(DataVersionService), await make(RateLimitService))
  }

  /** Whether the request is one this path may answer (cheap, synchronous: everything else goes straight on). */
  accepts(request: IncomingMessage): boolean {
    if (request.method !== 'GET' || request.headers.origin !== undefined) return false
    const url = request.url ?? ''
    if (url === '/health') return true
    if (typeof request.headers['x-api-key'] !== 'string' || !url.startsWith('/api/v1/users/')) return false
    return this.cache.enabled || renderedRead(url) !== null
  }

  /** Answers an accepted request; resolves false, having written nothing, when the pipeline must. */
  async serve(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    if (request.url === '/health') return this.serveHealth(request, response)
    return this.serveRead(request, response)
  }

  protected async serveHealth(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const report = await (await this.make(HealthProbeService)).check()
    // A string body goes out with the head in one write (a Buffer takes a writev of the two).
    const body = JSON.stringify(report)
    response.writeHead(HealthProbeService.httpStatus(report), {
      ...securityHeaders(),
      'X-Request-Id': requestId(request),
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(body),
    })
    response.end(body)
    return true
  }

  protected async serveRead(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const url = request.url!
    const pathUser = USER_READ_PATH.exec(url)?.[1]
    if (!pathUser || !USER_ID_PATTERN.test(pathUser)) return false
    const identity = ApiKeyService.recentIdentity(request.headers['x-api-key'] as string)
    if (!identity?.id || (identity.userExternalId !== null && identity.userExternalId !== pathUser)) return false

    const today = (await this.clock()).todayIso()
    const subject = apiKeySubject(identity.id)
    const early = this.countAhead(request, pathUser, today, url, subject)
    const user = await this.versions.current(pathUser)
    if (!user) return false
    const key = readCacheKey(user, today, url)
    let entry = this.cache.get(key)
    // Not held: one of the answers the database renders in one statement is rendered here.
    const render = entry ? null : renderedRead(url)
    if (!entry && !render) return false
    if (entry) this.rememberAnswered(pathUser, user)

    let limits: Record<string, string>
    try {
      limits = await (early ?? this.rateLimits.hit(apiRequestPolicy(), subject))
    } catch {
      return false
    }
    const headers: OutgoingHttpHeaders = { ...securityHeaders(), 'X-Request-Id': requestId(request), ...limits }
    if (render) {
      let answer
      try {
        answer = await render({ id: user.id, externalId: pathUser })
      } catch {
        // The pipeline answers (a 404, a problem) with the count already made.
        countedAhead.set(request, { subject, count: Promise.resolve(limits) })
        return false
      }
      if (!this.cache.enabled) {
        // As the pipeline answers without the read cache: no validator.
        Object.assign(headers, answer.headers)
        headers['Content-Length'] = Buffer.byteLength(answer.body)
        response.writeHead(200, headers)
        response.end(answer.body)
        return true
      }
      // Kept as ReadCacheMiddleware keeps a computed answer (header names in lower case).
      const kept = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]))
      entry = this.cache.set(key, Buffer.from(answer.body), kept)
      this.rememberAnswered(pathUser, user)
    }
    this.reply(request, response, headers, key, entry!)
    return true
  }

  /** A held answer in the content coding the client prefers, with its validator: 304 when the client has it. */
  protected reply(request: IncomingMessage, response: ServerResponse, headers: OutgoingHttpHeaders, key: string, entry: CachedResponse) {
    const sent = this.cache.representation(key, entry, request.headers['accept-encoding'])
    headers['ETag'] = sent.etag
    headers['Cache-Control'] = READ_CACHE_CONTROL
    headers['Vary'] = READ_CACHE_VARY
    if (request.headers['if-none-match'] !== undefined && fresh(request.headers, { etag: sent.etag })) {
      response.writeHead(304, headers)
      response.end()
      return
    }
    Object.assign(headers, entry.headers)
    if (sent.encoding) headers['Content-Encoding'] = sent.encoding
    headers['Content-Length'] = sent.body.length
    response.writeHead(200, headers)
    response.end(sent.body)
  }

  /**
   * In scale-out the count is a Redis round trip of its own. When the request will most likely be
   * answered here (this URL's answer under the user's last answered version is still cached, or
   * the URL is one the database renders), it is counted at once, alongside the version read, and
   * the count is registered for the pipeline (`countedAhead`), which uses it instead of counting
   * again should the fast path not answer after all (the version moved on, an unknown user, the
   * database failed). A request the pipeline then refuses before its rate limiter (the key revoked
   * in that instant) stays counted.
   */
  protected countAhead(request: IncomingMessage, pathUser: string, today: string, url: string, subject: string) {
    if (PROCESS_COUNTING) return null
    const answered = this.answeredVersions.get(pathUser)
    const held = answered !== undefined && this.cache.has(readCacheKey(answered, today, url))
    if (!held && renderedRead(url) === null) return null
    const count = this.rateLimits.hit(apiRequestPolicy(), subject)
    // Awaited by whichever answers the request; a refusal (429) is theirs to send.
    count.catch(() => {})
    countedAhead.set(request, { subject, count })
    return count
  }

  protected rememberAnswered(pathUser: string, user: UserDataVersion) {
    const known = this.answeredVersions.get(pathUser)
    if (known?.id === user.id && known.version === user.version) return
    if (!known && this.answeredVersions.size >= MAX_REMEMBERED_USERS) this.answeredVersions.clear()
    this.answeredVersions.set(pathUser, user)
  }
}

import { randomUUID } from 'node:crypto'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import fresh from 'fresh'
import app from '@adonisjs/core/services/app'
import { securityHeaders } from '#services/security_headers'
import { ApiKeyService } from '#services/auth/api_key_service'
import { ClockService } from '#services/clock_service'
import { DataVersionService } from '#services/data_version_service'
import { HealthProbeService } from '#services/health_probe_service'
import { RateLimitService, apiKeySubject, apiRequestPolicy } from '#services/rate_limit_service'
import { READ_CACHE_CONTROL, ResponseCache, readCacheKey } from '#services/response_cache'
import { USER_ID_PATTERN } from '#validators/rules'

/** `/api/v1/users/{user_id}/…`: the data reads ReadCacheMiddleware keeps. */
const USER_READ_PATH = /^\/api\/v1\/users\/([^/?]+)\//

const JSON_TYPE = 'application/json; charset=utf-8'

/** The request's own X-Request-Id, else a new one, as the framework answers it (config/app.ts generateRequestId). */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && given ? given : randomUUID()
}

/**
 * Answers the two kinds of request that dominate a read-heavy server before the framework's
 * pipeline (context, router, middleware chain) is built for them: `GET /health`, and a `GET` of a
 * user's data whose answer ReadCacheMiddleware already holds for the user's current data version.
 * Each step is the one the pipeline runs, through the same services: the API key's identity
 * (ApiKeyService, only when this process checked the key moments ago), its scope, the per-key
 * budget (RateLimitService, so every answer is counted exactly once), the data version read from
 * the database (DataVersionService, so an answer is never older than the data) and the cached
 * entry under the same key, with the same headers and `If-None-Match` handling.
 *
 * Whatever it cannot answer exactly as the pipeline would goes to the pipeline untouched: a cache
 * miss, HEAD, a request with `Origin` (CORS), no or an unknown key, a key out of scope, a spent
 * budget (the pipeline counts it again, which changes nothing once it is spent, and answers the
 * 429), the database failing.
 */
export class ReadFastPath {
  /**
   * The clock and the health probe are resolved from the container on every request, as the
   * pipeline resolves a middleware's or controller's (a clock pinned by a test is the one both
   * read); the cache, the version reads and the rate limiter are the process's own.
   */
  protected make = app.container.make.bind(app.container)

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
    return this.cache.enabled && typeof request.headers['x-api-key'] === 'string' && url.startsWith('/api/v1/users/')
  }

  /** Answers an accepted request; resolves false, having written nothing, when the pipeline must. */
  async serve(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    if (request.url === '/health') return this.serveHealth(request, response)
    return this.serveCachedRead(request, response)
  }

  protected async serveHealth(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const report = await (await this.make(HealthProbeService)).check()
    const body = Buffer.from(JSON.stringify(report))
    response.writeHead(HealthProbeService.httpStatus(report), {
      ...securityHeaders(),
      'X-Request-Id': requestId(request),
      'Content-Type': JSON_TYPE,
      'Content-Length': body.length,
    })
    response.end(body)
    return true
  }

  protected async serveCachedRead(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const url = request.url!
    const pathUser = USER_READ_PATH.exec(url)?.[1]
    if (!pathUser || !USER_ID_PATTERN.test(pathUser)) return false
    const identity = ApiKeyService.recentIdentity(request.headers['x-api-key'] as string)
    if (!identity?.id || (identity.userExternalId !== null && identity.userExternalId !== pathUser)) return false

    const user = await this.versions.current(pathUser)
    if (!user) return false
    const entry = this.cache.get(readCacheKey(user, (await this.make(ClockService)).todayIso(), url))
    if (!entry) return false

    let limits: Record<string, string>
    try {
      limits = await this.rateLimits.hit(apiRequestPolicy(), apiKeySubject(identity.id))
    } catch {
      return false
    }
    const headers: OutgoingHttpHeaders = {
      ...securityHeaders(),
      'X-Request-Id': requestId(request),
      ...limits,
      'ETag': entry.etag,
      'Cache-Control': READ_CACHE_CONTROL,
    }
    if (request.headers['if-none-match'] !== undefined && fresh(request.headers, { etag: entry.etag })) {
      response.writeHead(304, headers)
      response.end()
      return true
    }
    Object.assign(headers, entry.headers)
    headers['Content-Length'] = entry.body.length
    response.writeHead(200, headers)
    response.end(entry.body)
    return true
  }
}

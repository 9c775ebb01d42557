import { createHash } from 'node:crypto'
import env from '#start/env'
import logger from '@adonisjs/core/services/logger'
import { cacheGenerations, type CacheGenerations } from '#services/coolify/cache_generations'
import { maskUrlCredentials } from '#services/coolify/masking'
import CoolifyNotConfiguredException from '#exceptions/coolify_not_configured_exception'
import CoolifyRequestException from '#exceptions/coolify_request_exception'
import CoolifyTimeoutException from '#exceptions/coolify_timeout_exception'
import CoolifyTokenRejectedException from '#exceptions/coolify_token_rejected_exception'
import CoolifyUnreachableException from '#exceptions/coolify_unreachable_exception'
import CoolifyUpstreamErrorException from '#exceptions/coolify_upstream_error_exception'
import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'

export interface CoolifyClientOptions {
  /** Coolify instance URL (`https://coolify.example.com`); `/api/v1` is appended when missing. */
  baseUrl: string
  /** API token sent as `Authorization: Bearer …`. */
  token: string
  /** Time allowed to connect and receive the response headers, per attempt (ms). */
  connectTimeoutMs: number
  /** Time allowed for the whole call, retries included (ms). */
  timeoutMs: number
  /** Extra attempts for idempotent GETs after a network error, a timeout or an upstream 502/503/504. */
  retries: number
  /** Lifetime of cached GET answers (ms); 0 disables the cache. */
  cacheTtlMs: number
  /** Project the dashboard is restricted to; undefined falls back to COOLIFY_PROJECT_UUID, '' means none. */
  projectUuid?: string
  /** Where cache generations live (Redis in the scale-out profile, memory otherwise). */
  generations?: CacheGenerations
}

export type Query = Record<string, string | number | boolean | undefined | null>

export interface RequestOptions {
  query?: Query
  body?: unknown
  /** GETs are cached unless this is false (live data: logs, running deployments). */
  cache?: boolean
}

const DEFAULTS = { connectTimeoutMs: 5_000, timeoutMs: 15_000, retries: 2, cacheTtlMs: 5_000 }
const RETRYABLE_STATUSES = new Set([502, 503, 504])

interface CacheEntry {
  expiresAt: number
  value: unknown
}

/**
 * GET answers shared by every client instance of this process, namespaced by a hash of
 * token + base URL so two Coolify instances (or tokens) never see each other's data, and
 * keyed by the namespace's generation so a mutation anywhere makes them unreachable.
 */
const cache = new Map<string, CacheEntry>()
const MAX_ENTRIES = 1000

function prune(now: number) {
  if (cache.size < MAX_ENTRIES) return
  for (const [key, entry] of cache) if (entry.expiresAt <= now) cache.delete(key)
  // Still full of live entries: drop the oldest inserted.
  for (const key of cache.keys()) {
    if (cache.size < MAX_ENTRIES) break
    cache.delete(key)
  }
}

class AttemptTimeout extends Error {}

/**
 * Coolify v1 API client (built-in fetch). Bearer COOLIFY_TOKEN against COOLIFY_URL, a short
 * connect timeout and a total deadline, retries only for GETs, and a short GET cache that
 * every mutation through any client of the same token + URL empties. Failures become typed
 * exceptions: network 502, timeout 504, upstream 401 502, other 4xx the same status.
 */
export class CoolifyClient {
  readonly options: CoolifyClientOptions
  readonly apiUrl: string
  readonly #namespace: string
  readonly #generations: CacheGenerations

  constructor(options: Partial<CoolifyClientOptions> = {}) {
    this.options = {
      ...DEFAULTS,
      baseUrl: options.baseUrl ?? env.get('COOLIFY_URL') ?? '',
      token: options.token ?? env.get('COOLIFY_TOKEN') ?? '',
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    } as CoolifyClientOptions
    const base = this.options.baseUrl.replace(/\/+$/, '')
    this.apiUrl = base === '' ? '' : base.endsWith('/api/v1') ? base : `${base}/api/v1`
    this.#namespace = createHash('sha256').update(`${this.options.token}\n${this.apiUrl}`).digest('hex').slice(0, 32)
    this.#generations = options.generations ?? cacheGenerations()
  }

  /** Hash of token + URL naming this client's cache entries and generation counter. */
  get cacheNamespace(): string {
    return this.#namespace
  }

  /** True when both COOLIFY_URL and COOLIFY_TOKEN are set. */
  get configured(): boolean {
    return this.apiUrl !== '' && this.options.token !== ''
  }

  /** The Coolify host name, for messages (never the token). */
  get host(): string {
    try {
      return new URL(this.apiUrl).host
    } catch {
      return 'coolify'
    }
  }

  get<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, options)
  }

  post<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, options)
  }

  patch<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('PATCH', path, options)
  }

  delete<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, options)
  }

  /** Drops every cached GET of this token + Coolify URL, in every process sharing the generation store. */
  async invalidate() {
    for (const key of cache.keys()) {
      if (key.startsWith(`${this.#namespace}|`)) cache.delete(key)
    }
    try {
      await this.#generations.bump(this.#namespace)
    } catch (error) {
      logger.warn({ err: error }, 'could not bump the Coolify cache generation')
    }
  }

  /** The namespace's current generation, or null (no caching) when the store fails. */
  protected async generation(): Promise<string | null> {
    try {
      return await this.#generations.current(this.#namespace)
    } catch (error) {
      logger.warn({ err: error }, 'Coolify cache generation unavailable; reading uncached')
      return null
    }
  }

  /**
   * One call to `{COOLIFY_URL}/api/v1{path}`. JSON answers are parsed, others returned as
   * text (`/version`). Any non-GET empties the cache first and again once it is answered.
   */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    if (!this.configured) {
      throw new CoolifyNotConfiguredException('Set COOLIFY_URL and COOLIFY_TOKEN to use the Coolify dashboard (upstream coolify).')
    }
    const url = this.buildUrl(path, options.query)
    const isGet = method === 'GET'
    const generation = isGet && options.cache !== false && this.options.cacheTtlMs > 0 ? await this.generation() : null
    const cacheKey = generation === null ? null : `${this.#namespace}|${generation}|${url}`

    if (cacheKey) {
      const hit = cache.get(cacheKey)
      if (hit && hit.expiresAt > Date.now()) return structuredClone(hit.value) as T
    }
    if (!isGet) await this.invalidate()

    try {
      const value = await this.send(method, url, options.body, isGet ? this.options.retries : 0)
      if (cacheKey) {
        const now = Date.now()
        prune(now)
        cache.set(cacheKey, { expiresAt: now + this.options.cacheTtlMs, value: structuredClone(value) })
      }
      return value as T
    } finally {
      // A mutation may have changed what any cached read shows, even when it failed half-way.
      if (!isGet) await this.invalidate()
    }
  }

  protected buildUrl(path: string, query: Query = {}): string {
    const url = new URL(`${this.apiUrl}${path.startsWith('/') ? path : `/${path}`}`)
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
    }
    return url.toString()
  }

  protected async send(method: string, url: string, body: unknown, retries: number): Promise<unknown> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs)
    let attempt = 0
    while (true) {
      try {
        const response = await this.attempt(method, url, body, deadline)
        if (attempt < retries && RETRYABLE_STATUSES.has(response.status)) {
          await response.body?.cancel()
          attempt += 1
          await this.backoff(attempt, deadline)
          continue
        }
        return await this.parse(response, deadline)
      } catch (error) {
        const mapped = this.mapError(error, deadline)
        if (mapped instanceof CoolifyTimeoutException && deadline.aborted) throw mapped
        if (attempt >= retries || !(mapped instanceof CoolifyUnreachableException || mapped instanceof CoolifyTimeoutException)) {
          throw mapped
        }
        attempt += 1
        await this.backoff(attempt, deadline)
      }
    }
  }

  protected async attempt(method: string, url: string, body: unknown, deadline: AbortSignal): Promise<Response> {
    const connect = new AbortController()
    const timer = setTimeout(() => connect.abort(new AttemptTimeout()), this.options.connectTimeoutMs)
    try {
      const headers: Record<string, string> = {
        Accept: 'application/json',
        Authorization: `Bearer ${this.options.token}`,
      }
      if (body !== undefined) headers['Content-Type'] = 'application/json'
      return await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([deadline, connect.signal]),
        redirect: 'manual',
      })
    } catch (error) {
      if (connect.signal.aborted && !deadline.aborted) throw connect.signal.reason
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  protected async backoff(attempt: number, deadline: AbortSignal) {
    await new Promise((resolve) => setTimeout(resolve, 100 * 3 ** (attempt - 1)))
    if (deadline.aborted) throw new CoolifyTimeoutException(this.timeoutMessage())
  }

  protected async parse(response: Response, deadline: AbortSignal): Promise<unknown> {
    let text: string
    try {
      text = await response.text()
    } catch (error) {
      throw this.mapError(error, deadline)
    }
    const isJson = (response.headers.get('content-type') ?? '').includes('json')
    let data: unknown = text
    if (isJson && text !== '') {
      try {
        data = JSON.parse(text)
      } catch {
        data = text
      }
    }
    if (response.ok) return isJson && text === '' ? null : data
    throw this.statusError(response, data)
  }

  protected statusError(response: Response, data: unknown): Error {
    const status = response.status
    const message =
      data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
        ? (data as { message: string }).message
        : typeof data === 'string' && data.length > 0 && data.length < 300 && !data.trimStart().startsWith('<')
          ? data
          : null
    // Coolify's messages can quote a repository or database URL: never pass its credentials on.
    const upstreamMessage = message === null ? null : maskUrlCredentials(message)

    if (status === 401 || (status === 400 && upstreamMessage === 'Invalid token.')) {
      return new CoolifyTokenRejectedException('Coolify rejected the configured token (upstream coolify answered ' + status + '). Check COOLIFY_TOKEN.')
    }
    if (status >= 500 || status < 400) {
      return new CoolifyUpstreamErrorException(
        `Upstream coolify failed with status ${status}${upstreamMessage ? `: ${upstreamMessage}` : '.'}`
      )
    }
    // Coolify's own message, prefixed so the detail names the upstream.
    const error = new CoolifyRequestException(
      upstreamMessage ? `Coolify: ${upstreamMessage}` : `Upstream coolify refused the request with status ${status}.`,
      { status }
    )
    const errors = (data as { errors?: unknown } | null)?.errors
    if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
      error.problemExtensions.errors = Object.entries(errors as Record<string, unknown>).flatMap(([field, messages]) =>
        (Array.isArray(messages) ? messages : [messages]).map((text) => ({ field, rule: 'coolify', message: maskUrlCredentials(String(text)) }))
      )
    }
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) error.headers['Retry-After'] = retryAfter
    return error
  }

  protected mapError(error: unknown, deadline: AbortSignal): Error {
    if (error instanceof CoolifyUpstreamException) return error
    if (error instanceof AttemptTimeout || deadline.aborted || (error as Error)?.name === 'TimeoutError') {
      return new CoolifyTimeoutException(this.timeoutMessage())
    }
    const cause = (error as { cause?: { code?: string } })?.cause
    const code = cause?.code ?? (error as { code?: string })?.code ?? 'network error'
    return new CoolifyUnreachableException(`Upstream coolify at ${this.host} could not be reached (${code}).`)
  }

  protected timeoutMessage() {
    return `Upstream coolify at ${this.host} did not answer in time (${this.options.timeoutMs} ms).`
  }
}

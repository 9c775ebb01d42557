import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import string from '@adonisjs/core/helpers/string'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import bodyParserConfig, { bodyBudget } from '#config/bodyparser'
import { isMachineApiPath, isOAuthEndpointPath } from '#config/surfaces'
import ServerBusyException from '#exceptions/server_busy_exception'
import UnsupportedMediaTypeException from '#exceptions/unsupported_media_type_exception'

interface Waiter {
  bytes: number
  resolve: (release: () => void) => void
  timer: NodeJS.Timeout
}

/**
 * Raw body bytes held by this process, first come first served: a body waits
 * until its bytes fit and is refused with ServerBusyException after `waitMs`.
 */
class ByteBudget {
  #free: number
  #waiting: Waiter[] = []

  constructor(protected total: number) {
    this.#free = total
  }

  acquire(requested: number): Promise<() => void> {
    const bytes = Math.min(requested, this.total)
    if (this.#waiting.length === 0 && bytes <= this.#free) {
      this.#free -= bytes
      return Promise.resolve(this.#releaser(bytes))
    }
    if (this.#waiting.length >= bodyBudget.maxWaiting) return Promise.reject(busy())
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        resolve,
        timer: setTimeout(() => {
          this.#waiting = this.#waiting.filter((w) => w !== waiter)
          reject(busy())
          this.#drain()
        }, bodyBudget.waitMs),
      }
      this.#waiting.push(waiter)
    })
  }

  #releaser(bytes: number) {
    let released = false
    return () => {
      if (released) return
      released = true
      this.#free += bytes
      this.#drain()
    }
  }

  #drain() {
    while (this.#waiting.length > 0 && this.#waiting[0].bytes <= this.#free) {
      const waiter = this.#waiting.shift()!
      clearTimeout(waiter.timer)
      this.#free -= waiter.bytes
      waiter.resolve(this.#releaser(waiter.bytes))
    }
  }
}

const busy = () => new ServerBusyException('The server is reading too many request bodies. Try again shortly.')
const budget = new ByteBudget(bodyBudget.bytes)
const limitOf = (limit: string | number | undefined) => string.bytes.parse(limit ?? '1mb') ?? bodyBudget.bytes
const jsonLimit = limitOf(bodyParserConfig.json.limit)
const formLimit = limitOf(bodyParserConfig.form.limit)

/** POST/PUT/PATCH/DELETE with a body (the only requests the parser reads). */
function carriesBody(ctx: HttpContext) {
  return bodyParserConfig.allowedMethods.includes(ctx.request.method()) && ctx.request.hasBody()
}

/**
 * Bytes to reserve for this body: its declared length, or the type's limit when the length is
 * unknown or encoded. Zero when the parser will not read it (an unparsed type, or a declared
 * length over the limit, which the parser refuses with a 413 before reading).
 */
function reservation(ctx: HttpContext): number {
  const limit = ctx.request.is(bodyParserConfig.json.types)
    ? jsonLimit
    : ctx.request.is(bodyParserConfig.form.types)
      ? formLimit
      : 0
  if (limit === 0) return 0
  const declared = Number(ctx.request.header('content-length'))
  const encoding = (ctx.request.header('content-encoding') ?? 'identity').toLowerCase()
  if (encoding !== 'identity' || !Number.isFinite(declared) || declared <= 0) return limit
  return declared > limit ? 0 : declared
}

/**
 * Reads and parses the body with the framework's parser, inside the per-process byte budget;
 * the bytes stay reserved until the answer is sent, since the parsed body lives that long.
 * The machine APIs call this from their auth middleware, once the credentials are checked.
 */
export async function readRequestBody(ctx: HttpContext, next: NextFn) {
  // The parser reads no body of other methods (GET, HEAD): what it would do, without resolving it.
  if (!bodyParserConfig.allowedMethods.includes(ctx.request.method())) return next()
  const parser = await ctx.containerResolver.make(BodyParserMiddleware)
  const bytes = carriesBody(ctx) ? reservation(ctx) : 0
  if (bytes === 0) return parser.handle(ctx, next)

  const response = ctx.response.response
  let release: (() => void) | null = null
  let closed = false
  response.once('close', () => {
    closed = true
    release?.()
  })
  release = await budget.acquire(bytes)
  if (closed) release()
  return parser.handle(ctx, next)
}

/**
 * Router-level body parsing. Multipart is refused with a 415 before a byte is read (no route
 * takes uploads). On the analytics and operations APIs the body is left unread here:
 * ApiKeyMiddleware and OpsTokenMiddleware read it after the header credentials passed, so an
 * unauthenticated request never costs a parse. Everywhere else it is read at once, the OAuth
 * endpoints included (their client credentials may be in the body).
 */
export default class GuardedBodyParserMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    ctx.request.__raw_files = {}
    if (carriesBody(ctx) && ctx.request.is(['multipart/*'])) {
      throw new UnsupportedMediaTypeException('Multipart bodies are not accepted: no endpoint takes uploads.')
    }
    const path = ctx.request.url()
    if (isMachineApiPath(path) && !isOAuthEndpointPath(path)) return next()
    return readRequestBody(ctx, next)
  }
}

import { createHash } from 'node:crypto'
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import OpsForbiddenException from '#exceptions/ops_forbidden_exception'
import OpsUnauthorizedException from '#exceptions/ops_unauthorized_exception'
import RateLimitedException from '#exceptions/rate_limited_exception'
import { readRequestBody } from '#middleware/body_parser_middleware'
import { RateLimitService, type RateLimitPolicy } from '#services/rate_limit_service'
import {
  OpsTokenRegistry,
  extractBearerToken,
  principalHasScope,
  type OpsPrincipal,
  type OpsScope,
} from '#services/ops/ops_tokens'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The operations token that authenticated this request (set by OpsTokenMiddleware). */
    opsPrincipal?: OpsPrincipal
  }
}

/** Stricter per-token budgets for the endpoints that change state or spawn processes. */
const MUTATION_POLICIES: Partial<Record<OpsScope, RateLimitPolicy>> = {
  'console:execute': { bucket: 'ops_console', requests: 10, window: '1 minute' },
  'queue:retry': { bucket: 'ops_retry', requests: 30, window: '1 minute' },
}
/** Failed authentications allowed per client address before 429 (slows token guessing). */
const AUTH_FAILURE_POLICY: RateLimitPolicy = { bucket: 'ops_auth_failure', requests: 60, window: '1 minute' }

let cached: { key: string; registry: OpsTokenRegistry } | null = null

/** The token registry for the current OPS_TOKENS / OPS_TOKEN values, parsed once per change. */
function tokenRegistry(): OpsTokenRegistry {
  const opsTokens = env.get('OPS_TOKENS')
  const opsToken = env.get('OPS_TOKEN')
  const key = JSON.stringify([opsTokens ?? null, opsToken ?? null])
  if (cached?.key !== key) {
    const parsed = OpsTokenRegistry.parse(opsTokens, opsToken)
    for (const warning of parsed.warnings) logger.warn({ area: 'ops' }, warning)
    cached = { key, registry: parsed.registry }
  }
  return cached.registry
}

/**
 * Guards every operations route: `Authorization: Bearer <token>` must match a configured token
 * (401 otherwise), the request counts against that token's rate limit (429 with Retry-After;
 * RateLimit-* headers on every response) and the token must hold the route's scope (403).
 * Only then is the request body read (GuardedBodyParserMiddleware leaves it unread).
 * Usage: `middleware.opsToken({ scope: 'logs:read' })`.
 */
@inject()
export default class OpsTokenMiddleware {
  constructor(protected rateLimits: RateLimitService) {}

  async handle(ctx: HttpContext, next: NextFn, options: { scope: OpsScope }) {
    const presented = extractBearerToken(ctx.request.header('authorization'))
    const principal = presented === null ? null : tokenRegistry().authenticate(presented)
    if (presented === null || principal === null) {
      await this.count(AUTH_FAILURE_POLICY, ctx.request.ip())
      throw new OpsUnauthorizedException(
        presented === null
          ? 'A bearer token is required (Authorization: Bearer <token>).'
          : 'The bearer token is not valid.'
      )
    }

    // Counters are keyed by a digest of the token, never by the token itself.
    const tokenKey = createHash('sha256').update(presented).digest('hex').slice(0, 32)
    const headers = await this.count(
      {
        bucket: 'ops',
        requests: env.get('RATE_LIMIT_REQUESTS', 1000),
        window: env.get('RATE_LIMIT_WINDOW', '15 minutes'),
      },
      tokenKey
    )
    for (const [name, value] of Object.entries(headers)) ctx.response.header(name, value)
    const mutation = MUTATION_POLICIES[options.scope]
    if (mutation) await this.count(mutation, tokenKey)

    if (!principalHasScope(principal, options.scope)) {
      throw new OpsForbiddenException(
        `The token "${principal.name}" lacks the scope "${options.scope}" this endpoint requires.`
      )
    }
    ctx.opsPrincipal = principal
    return readRequestBody(ctx, next)
  }

  /**
   * Counts one request. A 429 propagates; a failing counter store (the database being down)
   * is logged and the request goes on, so `/health` can still report the outage.
   */
  protected async count(policy: RateLimitPolicy, key: string): Promise<Record<string, string>> {
    try {
      return await this.rateLimits.hit(policy, key)
    } catch (error) {
      if (error instanceof RateLimitedException) throw error
      logger.warn({ err: error, area: 'ops' }, 'rate-limit store unavailable; request not counted')
      return {}
    }
  }
}

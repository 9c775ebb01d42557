import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import env from '#start/env'
import { ApiKeyService, OPEN_ACCESS, type ApiKeyIdentity } from '#services/auth/api_key_service'
import { RateLimitService, type RateLimitPolicy } from '#services/rate_limit_service'
import { readRequestBody } from '#middleware/body_parser_middleware'
import InvalidApiKeyException from '#exceptions/invalid_api_key_exception'
import ForbiddenUserException from '#exceptions/forbidden_user_exception'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    apiKey: ApiKeyIdentity
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1'])

/** True when the server listens only on a loopback address (DESIGN §4 open mode). */
export const listensOnLoopbackOnly = () => LOOPBACK_HOSTS.has(env.get('HOST', '127.0.0.1'))

/**
 * Missing or invalid keys allowed per client address and window; past it, they are answered
 * 429 with the window's real reset instead of 401. Valid keys from the address still pass, so
 * a misconfigured client behind a shared address locks nobody else out.
 */
export const API_KEY_FAILURE_POLICY: RateLimitPolicy = { bucket: 'api_auth_failure', requests: 60, window: '1 minute' }

/**
 * `X-API-Key` authentication for the analytics API. A user-scoped key may
 * only touch its own `{user_id}` (else 403). With no key at all and a
 * loopback-only listener the API is open. The request body is read only
 * after all of this passed (GuardedBodyParserMiddleware leaves it unread).
 */
@inject()
export default class ApiKeyMiddleware {
  constructor(
    protected apiKeys: ApiKeyService,
    protected rateLimits: RateLimitService
  ) {}

  async handle(ctx: HttpContext, next: NextFn) {
    ctx.apiKey = await this.identify(ctx)

    const pathUser = ctx.params.user_id
    const scope = ctx.apiKey.userExternalId
    if (scope !== null && pathUser !== undefined && pathUser !== scope) {
      throw new ForbiddenUserException()
    }
    return readRequestBody(ctx, next)
  }

  /** The key's identity, open access, or a counted failure (401, then 429 past the policy). */
  protected async identify(ctx: HttpContext): Promise<ApiKeyIdentity> {
    const presented = ctx.request.header('x-api-key')
    try {
      if (presented) return await this.apiKeys.authenticate(presented)
      if (listensOnLoopbackOnly() && !(await this.apiKeys.anyExists())) return OPEN_ACCESS
      throw new InvalidApiKeyException('An API key is required in the X-API-Key header.')
    } catch (error) {
      if (error instanceof InvalidApiKeyException) {
        await this.rateLimits.hitIfAvailable(API_KEY_FAILURE_POLICY, ctx.request.ip())
      }
      throw error
    }
  }
}

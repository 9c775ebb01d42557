import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import env from '#start/env'
import { ApiKeyService, OPEN_ACCESS, type ApiKeyIdentity } from '#services/auth/api_key_service'
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
 * `X-API-Key` authentication for the analytics API. A user-scoped key may
 * only touch its own `{user_id}` (else 403). With no key at all and a
 * loopback-only listener the API is open.
 */
@inject()
export default class ApiKeyMiddleware {
  constructor(protected apiKeys: ApiKeyService) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const presented = ctx.request.header('x-api-key')
    if (presented) {
      ctx.apiKey = await this.apiKeys.authenticate(presented)
    } else if (listensOnLoopbackOnly() && !(await this.apiKeys.anyExists())) {
      ctx.apiKey = OPEN_ACCESS
    } else {
      throw new InvalidApiKeyException('An API key is required in the X-API-Key header.')
    }

    const pathUser = ctx.params.user_id
    const scope = ctx.apiKey.userExternalId
    if (scope !== null && pathUser !== undefined && pathUser !== scope) {
      throw new ForbiddenUserException()
    }
    return next()
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OAuthTokenEndpointService } from '#services/oauth/oauth_token_endpoint_service'
import { tokenRequestValidator } from '#validators/oauth'

/** POST /oauth/token: authorization_code (PKCE) and refresh_token grants (RFC 6749 §3.2). */
@inject()
export default class TokenController {
  constructor(protected endpoint: OAuthTokenEndpointService) {}

  async handle({ request, response }: HttpContext) {
    const input = await request.validateUsing(tokenRequestValidator)
    const tokens = await this.endpoint.token(input, request.header('authorization'))
    return response.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').json(tokens)
  }
}

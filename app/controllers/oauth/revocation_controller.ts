import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OAuthTokenEndpointService } from '#services/oauth/oauth_token_endpoint_service'
import { revokeTokenValidator } from '#validators/oauth'

/** POST /oauth/revoke (RFC 7009): 200 for any token, known or not. */
@inject()
export default class RevocationController {
  constructor(protected endpoint: OAuthTokenEndpointService) {}

  async handle({ request, response }: HttpContext) {
    const input = await request.validateUsing(revokeTokenValidator)
    await this.endpoint.revoke(input, request.header('authorization'))
    return response.status(200).header('Cache-Control', 'no-store').send('')
  }
}

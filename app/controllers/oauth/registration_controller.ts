import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OAuthClientService } from '#services/oauth/oauth_client_service'
import { registerClientValidator } from '#validators/oauth'

/** POST /oauth/register: dynamic client registration (RFC 7591), limited per address. */
@inject()
export default class RegistrationController {
  constructor(protected clients: OAuthClientService) {}

  async store({ request, response }: HttpContext) {
    const metadata = await request.validateUsing(registerClientValidator)
    const registration = await this.clients.register(metadata, request.ip())
    return response.status(201).header('Cache-Control', 'no-store').json(registration)
  }
}

import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { PolarCredentialsService } from '#services/admin/polar_credentials_service'
import { polarCredentialsValidator } from '#validators/admin'

/** /admin/polar: AccessLink client credentials, the callback URL to register, Connect. */
export default class PolarController {
  async show({ inertia, session }: HttpContext) {
    const base = (env.get('APP_URL') ?? `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`).replace(/\/+$/, '')
    return inertia.render('polar', {
      credentials: await new PolarCredentialsService().summary(),
      callbackUrl: `${base}/oauth/polar/callback`,
      connected: (session.flashMessages.get('connected') as Record<string, unknown> | undefined) ?? null,
    })
  }

  async updateCredentials({ request, response, session }: HttpContext) {
    const service = new PolarCredentialsService()
    if (service.fromEnv()) {
      session.flash('error', 'POLAR_CLIENT_ID and POLAR_CLIENT_SECRET are set in the environment; change them there.')
      return response.redirect('/admin/polar')
    }
    const { client_id: clientId, client_secret: clientSecret } = await request.validateUsing(polarCredentialsValidator)
    await service.save(clientId, clientSecret)
    session.flash('success', 'Polar client credentials saved (the secret is stored encrypted).')
    return response.redirect('/admin/polar')
  }

  async connect({ response, session }: HttpContext) {
    session.flash('error', 'Connecting is not available yet.')
    return response.redirect('/admin/polar')
  }

  async connected({ response }: HttpContext) {
    return response.redirect('/admin/polar')
  }
}

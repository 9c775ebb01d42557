import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { InferData } from '@adonisjs/core/types/transformers'
import { PolarConnectService } from '#services/polar/polar_connect_service'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import PolarConnectionTransformer from '#transformers/admin/polar_connection_transformer'
import { polarCallbackValidator, polarCredentialsValidator } from '#validators/admin'

/** /admin/polar: client credentials, the callback URL to register, Connect → OAuth → key once → back-fill. */
@inject()
export default class PolarController {
  constructor(
    protected credentials: PolarCredentialsService,
    protected connection: PolarConnectService
  ) {}

  async show({ inertia, session }: HttpContext) {
    return inertia.render('polar', {
      credentials: await this.credentials.summary(),
      callbackUrl: this.connection.callbackUrl(),
      // The user-scoped key exists only in this one flash message, right after connecting.
      connected:
        (session.flashMessages.get('connected') as InferData<PolarConnectionTransformer> | undefined) ?? null,
    })
  }

  async updateCredentials({ request, response, session }: HttpContext) {
    if (this.credentials.fromEnv()) {
      session.flash('error', 'POLAR_CLIENT_ID and POLAR_CLIENT_SECRET are set in the environment; change them there.')
      return response.redirect('/admin/polar')
    }
    const { client_id: clientId, client_secret: clientSecret } = await request.validateUsing(polarCredentialsValidator)
    await this.credentials.save(clientId, clientSecret)
    session.flash('success', 'Polar client credentials saved (the secret is stored encrypted).')
    return response.redirect('/admin/polar')
  }

  /**
   * Sends the browser to Polar's consent page. A plain link (top-level GET),
   * so the navigation leaves the site without a form post or script; the
   * state it creates is single-use and useless to anyone else.
   */
  async connect({ response, session }: HttpContext) {
    const start = await this.connection.start()
    if (!start.ok) {
      session.flash('error', start.message)
      return response.redirect('/admin/polar')
    }
    return response.redirect(start.url)
  }

  /** Polar redirects here with `code` and `state` (or `error`). */
  async callback({ request, response, session }: HttpContext) {
    const { code, state, error } = await request.validateUsing(polarCallbackValidator)
    const result = await this.connection.finish(code, state, error)
    if (!result.ok) {
      session.flash('error', result.message)
      return response.redirect('/admin/polar')
    }
    session.flash('connected', new PolarConnectionTransformer(result).toObject())
    return response.redirect('/admin/polar')
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OAuthGrantService } from '#services/oauth/oauth_grant_service'
import OauthGrantTransformer from '#transformers/admin/oauth_grant_transformer'
import { connectedAppParamValidator } from '#validators/oauth'

/** /admin/connected-apps: the OAuth grants (AI connectors) with their user and scopes; revoke. */
@inject()
export default class ConnectedAppsController {
  constructor(protected grants: OAuthGrantService) {}

  async index({ inertia }: HttpContext) {
    return inertia.render('connected_apps', { apps: OauthGrantTransformer.transform(await this.grants.listActive()) })
  }

  async destroy({ request, response, session }: HttpContext) {
    const { params } = await request.validateUsing(connectedAppParamValidator)
    const name = await this.grants.revoke(params.id)
    if (name === null) session.flash('error', 'That app is not connected (any more).')
    else session.flash('success', `${name} disconnected: its tokens no longer work.`)
    return response.redirect('/admin/connected-apps')
  }
}

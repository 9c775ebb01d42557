import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AdminUsersService } from '#services/admin/admin_users_service'
import { OAuthAuthorizationService } from '#services/oauth/oauth_authorization_service'
import OAuthConsentTransformer from '#transformers/admin/oauth_consent_transformer'
import { authorizeValidator, consentValidator } from '#validators/oauth'

/**
 * /oauth/authorize: the consent page for a connector's authorization request (admin session
 * required; a logged-out admin logs in and comes back), and the decision posted from it.
 */
@inject()
export default class AuthorizationController {
  constructor(
    protected authorization: OAuthAuthorizationService,
    protected users: AdminUsersService
  ) {}

  async show({ request, response, inertia }: HttpContext) {
    const review = await this.authorization.review(await request.validateUsing(authorizeValidator))
    if (review.kind === 'redirect') return response.redirect(review.url)
    return inertia.render('oauth/consent', {
      ...new OAuthConsentTransformer(review.request).toObject(),
      scopes: this.authorization.scopeChoices(review.request.scopes),
      users: await this.users.externalIds(),
    })
  }

  /** Approve or deny; the browser leaves for the client's redirect URI (an Inertia visit via 409 + location). */
  async store({ request, response, inertia, auth }: HttpContext) {
    const input = await request.validateUsing(consentValidator)
    const url = await this.authorization.decide(input, auth.use('web').user!.id)
    if (request.header('x-inertia')) return inertia.location(url)
    return response.redirect(url)
  }
}

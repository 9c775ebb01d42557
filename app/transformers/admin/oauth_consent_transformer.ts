import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ValidAuthorizationRequest } from '#services/oauth/oauth_authorization_service'

/**
 * The consent page's view of a valid authorization request: who asks, where the browser goes
 * afterwards, and the request's parameters, which the page posts back with the decision.
 */
export default class OAuthConsentTransformer extends BaseTransformer<ValidAuthorizationRequest> {
  toObject() {
    const request = this.resource
    const redirect = new URL(request.redirectUri)
    return {
      client: {
        name: request.client.name,
        client_id: request.client.clientId,
        client_uri: request.client.clientUri,
        redirect_host: redirect.host,
        redirect_uri: request.redirectUri,
      },
      request: {
        response_type: 'code',
        client_id: request.client.clientId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        state: request.state ?? null,
        scope: request.scopes.length > 0 ? request.scopes.join(' ') : null,
        resource: request.resource,
      },
    }
  }
}

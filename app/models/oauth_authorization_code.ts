import { OauthAuthorizationCodeSchema } from '#database/schema'

/** A single-use authorization code (hash only), bound to client, redirect URI, resource and PKCE challenge. */
export default class OauthAuthorizationCode extends OauthAuthorizationCodeSchema {
  static table = 'oauth_authorization_codes'
}

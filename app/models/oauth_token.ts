import { OauthTokenSchema } from '#database/schema'

/** An access or refresh token of a grant (hash only); `kind` is `access` or `refresh`. */
export default class OauthToken extends OauthTokenSchema {
  static table = 'oauth_tokens'
}

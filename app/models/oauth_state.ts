import { OauthStateSchema } from '#database/schema'

/** A single-use OAuth state (stored hashed), shared by every web process. */
export default class OauthState extends OauthStateSchema {
  static table = 'oauth_states'
}

import { OauthClientSchema } from '#database/schema'

/** A dynamically registered OAuth client (RFC 7591); only its secret's SHA-256 is kept. */
export default class OauthClient extends OauthClientSchema {
  static table = 'oauth_clients'

  /** The exact redirect URIs registered for this client. */
  get redirectUriList(): string[] {
    return JSON.parse(this.redirectUris) as string[]
  }

  /** True for clients that authenticate with a secret (client_secret_basic / client_secret_post). */
  get isConfidential() {
    return this.tokenEndpointAuthMethod !== 'none'
  }
}

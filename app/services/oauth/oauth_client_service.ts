import { inject } from '@adonisjs/core'
import type { Infer } from '@vinejs/vine/types'
import OAuthProtocolException from '#exceptions/oauth_protocol_exception'
import OauthClient from '#models/oauth_client'
import { registrationLimit } from '#config/oauth'
import { RateLimitService } from '#services/rate_limit_service'
import { throttleAddress } from '#services/admin/login_throttle_service'
import { TOKEN_PREFIXES, newSecret, safeEqual, sha256Hex } from '#services/oauth/oauth_secrets'
import type { registerClientValidator } from '#validators/oauth'

/** The only grant and response types a client may register. */
const GRANT_TYPES = ['authorization_code', 'refresh_token']
const RESPONSE_TYPES = ['code']

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** The registration answer (RFC 7591 §3.2.1). `client_secret` only for confidential clients. */
export interface ClientRegistration {
  client_id: string
  client_id_issued_at: number
  client_secret?: string
  client_secret_expires_at?: number
  client_name: string
  redirect_uris: string[]
  grant_types: string[]
  response_types: string[]
  token_endpoint_auth_method: string
  client_uri?: string
  software_id?: string
  software_version?: string
}

/**
 * A redirect URI a client may register: absolute, no fragment or credentials, and https, or
 * plain http on a loopback host for native apps (RFC 8252 §7.3). Returns why not, or null.
 */
export function redirectUriProblem(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `"${value}" is not an absolute URI.`
  }
  if (url.hash || value.includes('#')) return `"${value}" must not contain a fragment.`
  if (url.username || url.password) return `"${value}" must not contain credentials.`
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null
  return `"${value}" must use https, or http on localhost, 127.0.0.1 or [::1].`
}

/**
 * True when `presented` is one of the registered redirect URIs: exact string match, except
 * that a loopback http URI matches on any port (RFC 8252 §7.3: native apps pick a free port).
 */
export function isRegisteredRedirectUri(client: OauthClient, presented: string): boolean {
  const registered = client.redirectUriList
  if (registered.includes(presented)) return true
  let url: URL
  try {
    url = new URL(presented)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.hash) return false
  const withoutPort = (candidate: URL) => `${candidate.protocol}//${candidate.hostname}${candidate.pathname}${candidate.search}`
  return registered.some((uri) => {
    try {
      const other = new URL(uri)
      return other.protocol === 'http:' && withoutPort(other) === withoutPort(url)
    } catch {
      return false
    }
  })
}

/** `Authorization: Basic` credentials (RFC 6749 §2.3.1: each part form-urlencoded), or null. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (!header || !/^basic /i.test(header)) return null
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return 'malformed'
  try {
    const part = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '))
    return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) }
  } catch {
    return 'malformed'
  }
}

/**
 * OAuth clients: dynamic registration (RFC 7591) and client authentication at the token and
 * revocation endpoints. Public clients (`none`) are identified by `client_id` alone and rely
 * on PKCE; confidential ones present their secret with Basic or in the body.
 */
@inject()
export class OAuthClientService {
  constructor(protected rateLimits: RateLimitService) {}

  /**
   * Registers a client. Without `token_endpoint_auth_method` a client is confidential
   * (`client_secret_basic`, RFC 7591's default) and gets a secret that never expires.
   * Registrations count per address (IPv6 per /64; `registrationLimit`, RateLimitedException when spent).
   * Throws OAuthProtocolException (`invalid_redirect_uri`, `invalid_client_metadata`).
   */
  async register(metadata: Infer<typeof registerClientValidator>, ip: string): Promise<ClientRegistration> {
    for (const uri of metadata.redirect_uris) {
      const problem = redirectUriProblem(uri)
      if (problem) throw new OAuthProtocolException('invalid_redirect_uri', problem)
    }
    const unsupportedGrant = (metadata.grant_types ?? []).find((type) => !GRANT_TYPES.includes(type))
    if (unsupportedGrant) {
      throw new OAuthProtocolException('invalid_client_metadata', `grant_type "${unsupportedGrant}" is not supported (only ${GRANT_TYPES.join(', ')}).`)
    }
    const unsupportedResponse = (metadata.response_types ?? []).find((type) => !RESPONSE_TYPES.includes(type))
    if (unsupportedResponse) {
      throw new OAuthProtocolException('invalid_client_metadata', `response_type "${unsupportedResponse}" is not supported (only code).`)
    }
    const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic'
    await this.rateLimits.hit({ bucket: 'oauth_register', ...registrationLimit }, `ip:${throttleAddress(ip)}`)

    const clientId = newSecret(TOKEN_PREFIXES.clientId, 16)
    const secret = method === 'none' ? null : newSecret(TOKEN_PREFIXES.clientSecret)
    const redirectUris = [...new Set(metadata.redirect_uris)]
    const client = await OauthClient.create({
      clientId,
      clientSecretHash: secret ? sha256Hex(secret) : null,
      name: metadata.client_name ?? 'Unnamed client',
      redirectUris: JSON.stringify(redirectUris),
      tokenEndpointAuthMethod: method,
      clientUri: metadata.client_uri ?? null,
      softwareId: metadata.software_id ?? null,
      softwareVersion: metadata.software_version ?? null,
    })
    return {
      client_id: clientId,
      client_id_issued_at: Math.floor(client.createdAt.toMillis() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: client.name,
      redirect_uris: redirectUris,
      grant_types: GRANT_TYPES,
      response_types: RESPONSE_TYPES,
      token_endpoint_auth_method: method,
      ...(client.clientUri ? { client_uri: client.clientUri } : {}),
      ...(client.softwareId ? { software_id: client.softwareId } : {}),
      ...(client.softwareVersion ? { software_version: client.softwareVersion } : {}),
    }
  }

  /** The client with this public id, or null. */
  async find(clientId: string): Promise<OauthClient | null> {
    if (!clientId.startsWith(TOKEN_PREFIXES.clientId) || clientId.length > 64) return null
    return OauthClient.findBy('clientId', clientId)
  }

  /**
   * Authenticates the caller of the token or revocation endpoint from the Authorization
   * header (Basic) or the body's `client_id` / `client_secret`. Throws `invalid_client` (401,
   * with `WWW-Authenticate: Basic` when Basic was tried) or `invalid_request`.
   */
  async authenticate(authorization: string | undefined, bodyId?: string, bodySecret?: string): Promise<OauthClient> {
    const basic = basicCredentials(authorization)
    const challenge = basic ? { headers: { 'WWW-Authenticate': 'Basic realm="HRVault"' } } : {}
    const failed = () => new OAuthProtocolException('invalid_client', 'Client authentication failed.', challenge)
    if (basic === 'malformed') throw failed()
    if (basic && bodySecret !== undefined) {
      throw new OAuthProtocolException('invalid_request', 'Use one client authentication method, not Basic and client_secret together.')
    }
    if (basic && bodyId !== undefined && bodyId !== basic.id) {
      throw new OAuthProtocolException('invalid_request', 'client_id differs from the Basic credentials.')
    }
    const clientId = basic?.id ?? bodyId
    const secret = basic ? basic.secret : bodySecret
    if (!clientId) throw failed()
    const client = await this.find(clientId)
    if (!client) throw failed()
    if (!client.isConfidential) {
      if (secret) throw failed()
      return client
    }
    if (!secret || !client.clientSecretHash || !safeEqual(sha256Hex(secret), client.clientSecretHash)) throw failed()
    return client
  }
}

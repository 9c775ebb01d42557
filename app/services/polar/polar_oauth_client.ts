import env from '#start/env'
import { PolarOAuthError } from '#services/polar/errors/polar_oauth_error'
import { PolarUpstreamError } from '#services/polar/errors/polar_upstream_error'
import { PolarTransport, type TransportOptions } from '#services/polar/transport'

/** Polar Flow's authorisation page (reference §1.1). */
export const DEFAULT_POLAR_AUTH_URL = 'https://flow.polar.com/oauth2/authorization'
/** Polar's token endpoint (reference §1.2). */
export const DEFAULT_POLAR_TOKEN_URL = 'https://polarremote.com/v2/oauth2/token'
/** The only AccessLink scope. */
export const POLAR_SCOPE = 'accesslink.read_all'

/** Options of {@link PolarOAuthClient}; URLs default to POLAR_AUTH_URL / POLAR_TOKEN_URL. */
export interface PolarOAuthClientOptions extends TransportOptions {
  clientId: string
  clientSecret: string
  authUrl?: string
  tokenUrl?: string
}

/** A successful code exchange. AccessLink tokens cannot be refreshed (no refresh token). */
export interface PolarToken {
  accessToken: string
  tokenType: string
  /** Lifetime in seconds as Polar sent it (≈ 1 year), null when absent. */
  expiresIn: number | null
  /** Polar's user id (`x_user_id`), the `{user-id}` of `/v3/users/{user-id}`. */
  polarUserId: number
}

/**
 * OAuth 2 authorisation-code helpers for AccessLink: the authorize URL and the code exchange
 * (HTTP Basic client authentication, form body). Registration of the user after the exchange is
 * {@link AccessLinkClient.registerUser}.
 */
export class PolarOAuthClient {
  readonly authUrl: string
  readonly tokenUrl: string
  readonly transport: PolarTransport
  readonly #clientId: string
  readonly #clientSecret: string

  constructor(options: PolarOAuthClientOptions) {
    this.authUrl = options.authUrl ?? env.get('POLAR_AUTH_URL') ?? DEFAULT_POLAR_AUTH_URL
    this.tokenUrl = options.tokenUrl ?? env.get('POLAR_TOKEN_URL') ?? DEFAULT_POLAR_TOKEN_URL
    this.transport = new PolarTransport({ retries: 0, ...options })
    this.#clientId = options.clientId
    this.#clientSecret = options.clientSecret
  }

  /**
   * The URL to send the user's browser to. `state` is the caller's CSRF value; `redirectUri`, when
   * given, must be registered with Polar and must be passed again to {@link exchangeCode}.
   */
  authorizeUrl(params: { state: string; redirectUri?: string }): string {
    const url = new URL(this.authUrl)
    url.searchParams.set('response_type', 'code')
    url.searchParams.set('client_id', this.#clientId)
    if (params.redirectUri) url.searchParams.set('redirect_uri', params.redirectUri)
    url.searchParams.set('scope', POLAR_SCOPE)
    url.searchParams.set('state', params.state)
    return url.toString()
  }

  /**
   * Exchanges an authorisation code (valid 10 minutes) for an access token. Throws PolarOAuthError
   * for a refused code (400) or refused client credentials (401), PolarUpstreamError otherwise.
   */
  async exchangeCode(code: string, redirectUri?: string): Promise<PolarToken> {
    const endpoint = 'POST /oauth2/token'
    const form = new URLSearchParams({ grant_type: 'authorization_code', code })
    if (redirectUri) form.set('redirect_uri', redirectUri)
    const basic = Buffer.from(`${this.#clientId}:${this.#clientSecret}`).toString('base64')
    const { status, data } = await this.transport.send({
      method: 'POST',
      url: this.tokenUrl,
      endpoint,
      headers: {
        'Authorization': `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Accept': 'application/json;charset=UTF-8',
      },
      body: form.toString(),
      passThrough: [400, 401, 403],
      retryable: false,
      rawAuthErrors: true,
    })
    if (status === 400) throw new PolarOAuthError(endpoint, status, 'invalid_grant')
    if (status === 401 || status === 403) throw new PolarOAuthError(endpoint, status, 'invalid_client')
    const body = (data ?? {}) as Record<string, unknown>
    const accessToken = body.access_token
    const userId = Number(body.x_user_id)
    if (typeof accessToken !== 'string' || accessToken === '' || !Number.isFinite(userId)) {
      throw new PolarUpstreamError(
        `Polar sent an unexpected body on ${endpoint} (expected access_token and x_user_id)`,
        endpoint,
        status,
        'malformed'
      )
    }
    return {
      accessToken,
      tokenType: typeof body.token_type === 'string' ? body.token_type : 'bearer',
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
      polarUserId: userId,
    }
  }
}

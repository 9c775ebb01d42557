import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import { OAUTH_SCOPES, mcpResource, oauthIssuer, oauthLifetimes } from '#config/oauth'
import AuthorizationRequestException from '#exceptions/authorization_request_exception'
import OauthAuthorizationCode from '#models/oauth_authorization_code'
import type OauthClient from '#models/oauth_client'
import User from '#models/user'
import { ClockService } from '#services/clock_service'
import { OAuthClientService, isRegisteredRedirectUri } from '#services/oauth/oauth_client_service'
import { isKnownScope, parseScopes, sameResource } from '#services/oauth/oauth_scopes'
import { TOKEN_PREFIXES, newSecret, sha256Hex } from '#services/oauth/oauth_secrets'
import type { authorizeValidator, consentValidator } from '#validators/oauth'

/** A base64url SHA-256 digest: what an S256 code_challenge always is (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** An authorization request that passed every check: what the consent page shows and echoes. */
export interface ValidAuthorizationRequest {
  client: OauthClient
  redirectUri: string
  state: string | undefined
  codeChallenge: string
  /** Scopes the client asked for (possibly none). */
  scopes: string[]
  resource: string
}

/** The result of reviewing a request: show the consent page, or send the client an error. */
export type AuthorizationReview =
  | { kind: 'consent'; request: ValidAuthorizationRequest }
  | { kind: 'redirect'; url: string }

type AuthorizeParams = Infer<typeof authorizeValidator>

/** The page explains scopes in words. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'health:read': 'Read the chosen user’s health data, baselines, anomalies, patterns and insights.',
  'sync': 'Start a sync of the chosen user’s data from Polar and read its status.',
}

/**
 * The authorization endpoint (RFC 6749 §4.1 with PKCE S256 only, RFC 8707 resource, RFC 9207
 * `iss`): checks a request, and turns the admin's decision into a redirect carrying a
 * single-use code or `access_denied`. Until the client and its redirect URI are known to be
 * valid, errors are thrown (AuthorizationRequestException → an error page); after that they go
 * back to the client as `error=` redirects.
 */
@inject()
export class OAuthAuthorizationService {
  constructor(
    protected clock: ClockService,
    protected clients: OAuthClientService
  ) {}

  /** Checks an authorization request (GET, and again when the decision is posted). */
  async review(params: AuthorizeParams): Promise<AuthorizationReview> {
    if (!params.client_id) throw new AuthorizationRequestException('The request has no client_id.')
    const client = await this.clients.find(params.client_id)
    if (!client) throw new AuthorizationRequestException('The client is not registered with this server.')
    const redirectUri = params.redirect_uri ?? (client.redirectUriList.length === 1 ? client.redirectUriList[0] : undefined)
    if (!redirectUri) throw new AuthorizationRequestException('The request has no redirect_uri and the client registered several.')
    if (!isRegisteredRedirectUri(client, redirectUri)) {
      throw new AuthorizationRequestException('The redirect_uri is not one the client registered.')
    }

    const fail = (error: string, description: string): AuthorizationReview => ({
      kind: 'redirect',
      url: this.redirectUrl(redirectUri, { error, error_description: description, state: params.state }),
    })
    if (!params.response_type) return fail('invalid_request', 'response_type is required.')
    if (params.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.')
    if (!params.code_challenge) return fail('invalid_request', 'code_challenge is required (PKCE S256).')
    if (params.code_challenge_method !== 'S256') {
      return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).')
    }
    if (!S256_CHALLENGE.test(params.code_challenge)) {
      return fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest (43 characters).')
    }
    const scopes = parseScopes(params.scope)
    const unknown = scopes.filter((scope) => !isKnownScope(scope))
    if (unknown.length > 0) {
      return fail('invalid_scope', `Unknown scope ${unknown.join(' ')}; supported: ${OAUTH_SCOPES.join(' ')}.`)
    }
    if (params.resource !== undefined && !sameResource(params.resource, mcpResource())) {
      return fail('invalid_target', `resource must be ${mcpResource()}.`)
    }
    return {
      kind: 'consent',
      request: { client, redirectUri, state: params.state, codeChallenge: params.code_challenge, scopes, resource: mcpResource() },
    }
  }

  /**
   * The admin's decision: deny → `error=access_denied`; approve → a single-use code for the
   * chosen user and scopes, bound to the client, redirect URI, resource and PKCE challenge.
   * Returns the URL to send the browser to.
   */
  async decide(input: Infer<typeof consentValidator>, adminUserId: number): Promise<string> {
    const review = await this.review(input)
    if (review.kind === 'redirect') return review.url
    const { request } = review
    if (input.decision === 'deny') {
      return this.redirectUrl(request.redirectUri, {
        error: 'access_denied',
        error_description: 'The administrator denied the request.',
        state: request.state,
      })
    }
    const user = await User.findBy('externalId', input.user_id!)
    if (!user) throw new AuthorizationRequestException(`User "${input.user_id}" does not exist.`)
    const code = await this.createCode(request, user.id, adminUserId, input.scopes!)
    return this.redirectUrl(request.redirectUri, { code, state: request.state })
  }

  /** The consent page's scope list: every supported scope, checked when requested (health:read when none was). */
  scopeChoices(requested: string[]) {
    const checked = requested.length > 0 ? requested : ['health:read']
    return OAUTH_SCOPES.map((value) => ({ value, description: SCOPE_DESCRIPTIONS[value], checked: checked.includes(value) }))
  }

  /** Stores a new code (hash only) and returns its plain value; purges expired codes. */
  protected async createCode(request: ValidAuthorizationRequest, userId: number, adminUserId: number, scopes: string[]) {
    const now = this.clock.now().toLocal()
    await OauthAuthorizationCode.query()
      .where('expiresAt', '<', now.toFormat(db.connection().dialect.dateTimeFormat))
      .delete()
    const code = newSecret(TOKEN_PREFIXES.code)
    await OauthAuthorizationCode.create({
      codeHash: sha256Hex(code),
      oauthClientId: request.client.id,
      userId,
      adminUserId,
      grantId: null,
      redirectUri: request.redirectUri,
      scopes: scopes.join(' '),
      resource: request.resource,
      codeChallenge: request.codeChallenge,
      expiresAt: now.plus({ seconds: oauthLifetimes.codeSeconds }),
      usedAt: null,
    })
    return code
  }

  /** The redirect URI with response parameters added (its own query kept) and `iss` (RFC 9207). */
  protected redirectUrl(redirectUri: string, params: Record<string, string | undefined>) {
    const url = new URL(redirectUri)
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(name, value)
    }
    url.searchParams.set('iss', oauthIssuer())
    return url.toString()
  }
}

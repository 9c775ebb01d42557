import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OAUTH_SCOPES, mcpResource, type OAuthScope } from '#config/oauth'
import { ApiKeyService, type ApiKeyIdentity } from '#services/auth/api_key_service'
import { RateLimitService } from '#services/rate_limit_service'
import { API_KEY_FAILURE_POLICY } from '#middleware/api_key_middleware'
import { OAuthAccessTokens } from '#services/mcp/oauth_access_tokens'
import InvalidApiKeyException from '#exceptions/invalid_api_key_exception'
import McpUnauthorizedException from '#exceptions/mcp_unauthorized_exception'

/** Scopes of the MCP tools (the OAuth scopes): reading data and analytics, starting a sync. */
export type McpScope = OAuthScope

/** Who is calling /mcp: an API key or an OAuth access token, and what it may do. */
export interface McpPrincipal {
  kind: 'api_key' | 'oauth'
  /** The key's name or the OAuth client's name (audit log). */
  name: string
  /** `key:<id>` or `oauth:<client_id>` (audit log; never the secret). */
  credential: string
  /** External id of the only user this credential may read; null for a service key (any user). */
  userExternalId: string | null
  scopes: string[]
  /** The rate-limit budget this credential counts against (shared with REST for API keys). */
  rateLimitSubject: string
  /** The API key identity when the credential is an API key (REST's `ctx.apiKey`). */
  apiKey: ApiKeyIdentity | null
}

/** Where a client finds the authorization server of /mcp (RFC 9728: the resource's path appended). */
export function mcpResourceMetadataUrl(): string {
  const resource = new URL(mcpResource())
  return `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`
}

/**
 * Authenticates a request to /mcp: `X-API-Key: <key>`, or `Authorization: Bearer <value>` where the
 * value is an HRVault API key or else an OAuth access token of the authorization server. API keys
 * carry both scopes; a user-scoped key and every OAuth token are bound to one user. Unlike the REST
 * API there is no open loopback mode: a request without valid credentials is a 401 whose
 * challenge points at the protected-resource metadata, so a connector can start OAuth. Failed
 * attempts count against the same per-address budget as the REST API's.
 */
@inject()
export class McpPrincipalResolver {
  constructor(
    protected apiKeys: ApiKeyService,
    protected rateLimits: RateLimitService
  ) {}

  async resolve(ctx: HttpContext): Promise<McpPrincipal> {
    const apiKeyHeader = ctx.request.header('x-api-key')
    const bearer = this.bearerOf(ctx.request.header('authorization'))
    try {
      if (apiKeyHeader) return this.fromApiKey(await this.apiKeys.authenticate(apiKeyHeader))
      if (bearer) return await this.fromBearer(ctx, bearer)
      throw this.unauthorized('Credentials are required: an API key (X-API-Key or Authorization: Bearer) or an OAuth access token.')
    } catch (error) {
      if (error instanceof InvalidApiKeyException) {
        await this.rateLimits.hitIfAvailable(API_KEY_FAILURE_POLICY, ctx.request.ip())
        throw this.unauthorized(error.message, true)
      }
      if (error instanceof McpUnauthorizedException) {
        await this.rateLimits.hitIfAvailable(API_KEY_FAILURE_POLICY, ctx.request.ip())
      }
      throw error
    }
  }

  /**
   * An OAuth access token (recognised by its prefix before any query), else an API key; neither
   * is a 401.
   */
  protected async fromBearer(ctx: HttpContext, value: string): Promise<McpPrincipal> {
    const grant = await (await ctx.containerResolver.make(OAuthAccessTokens)).verify(value)
    if (!grant) {
      try {
        return this.fromApiKey(await this.apiKeys.authenticate(value))
      } catch (error) {
        if (!(error instanceof InvalidApiKeyException)) throw error
        throw this.unauthorized('The bearer token is neither a valid API key nor a valid OAuth access token for this server (revoked or expired?).', true)
      }
    }
    return {
      kind: 'oauth',
      name: grant.clientName,
      credential: `oauth:${grant.clientId}`,
      userExternalId: grant.externalUserId,
      scopes: grant.scopes,
      rateLimitSubject: `oauth:${grant.clientId}:${grant.userId}`,
      apiKey: null,
    }
  }

  protected fromApiKey(identity: ApiKeyIdentity): McpPrincipal {
    return {
      kind: 'api_key',
      name: identity.name,
      credential: `key:${identity.id}`,
      userExternalId: identity.userExternalId,
      scopes: [...OAUTH_SCOPES],
      rateLimitSubject: `key:${identity.id}`,
      apiKey: identity,
    }
  }

  protected bearerOf(header: string | undefined): string | null {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
    return match ? match[1] : null
  }

  protected unauthorized(message: string, invalidToken = false) {
    return new McpUnauthorizedException(message, mcpResourceMetadataUrl(), invalidToken)
  }
}

import { CLIENT_AUTH_METHODS, OAUTH_SCOPES, mcpResource, oauthIssuer } from '#config/oauth'

/**
 * The discovery documents of the authorization server and of the MCP resource it protects.
 * Both derive every URL from APP_URL, so they stay right behind a reverse proxy.
 */
export class OAuthMetadataService {
  /** RFC 9728 protected-resource metadata of `<APP_URL>/mcp`. */
  protectedResource() {
    const issuer = oauthIssuer()
    return {
      resource: mcpResource(),
      authorization_servers: [issuer],
      scopes_supported: [...OAUTH_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'HRVault',
      resource_documentation: `${issuer}/schema/redoc`,
    }
  }

  /** RFC 8414 authorization-server metadata (with RFC 9207 `iss` in authorization responses). */
  authorizationServer() {
    const issuer = oauthIssuer()
    return {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      scopes_supported: [...OAUTH_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/schema/redoc`,
    }
  }
}

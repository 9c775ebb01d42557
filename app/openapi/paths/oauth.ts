import { errorResponses, headersTooLargeResponse, ref, type JsonSchema, type OpenApiModule } from '#openapi/components'

/*
 * The OAuth 2.1 authorization server of the MCP endpoint (`/mcp` itself is not described here:
 * it speaks MCP, not REST). Every URL in the examples is relative to APP_URL.
 */

const withRequired = (properties: Record<string, JsonSchema>, required: string[], description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  required,
  properties,
})

const stringList = (description: string, example: string[]) => ({ type: 'array', items: { type: 'string' }, description, examples: [example] })

const ISSUER = 'https://hrvault.example.com'

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 error answers (not problem+json: OAuth clients parse this shape). */
const oauthErrors = (statuses: Array<[number, string, string[]]>) =>
  Object.fromEntries(
    statuses.map(([status, description, codes]) => [
      String(status),
      {
        description,
        headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
        content: {
          'application/json': {
            schema: ref('OAuthError'),
            example: { error: codes[0], error_description: 'code_verifier does not match the code_challenge (PKCE S256).' },
          },
        },
      },
    ])
  )

export const tags = [
  {
    name: 'OAuth',
    description:
      'OAuth 2.1 authorization server for AI connectors of the MCP endpoint (`/mcp`): discovery (RFC 9728, RFC 8414), ' +
      'dynamic client registration (RFC 7591), authorization code with PKCE S256 only and a consent page in the admin UI, ' +
      'rotating refresh tokens and revocation (RFC 7009). Access tokens (`hva_…`, 1 hour) are bound to one HRVault user, ' +
      'the approved scopes (`health:read`, `sync`) and the resource `<APP_URL>/mcp`. Errors of the registration, token and ' +
      'revocation endpoints are RFC 6749 JSON `{error, error_description}`.',
  },
]

export const schemas = {
  OAuthError: withRequired(
    {
      error: {
        type: 'string',
        enum: [
          'invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope',
          'invalid_target', 'invalid_redirect_uri', 'invalid_client_metadata',
        ],
      },
      error_description: { type: 'string' },
    },
    ['error', 'error_description'],
    'RFC 6749 §5.2 error (RFC 7591 codes on registration).'
  ),
  ProtectedResourceMetadata: withRequired(
    {
      resource: { type: 'string', format: 'uri', examples: [`${ISSUER}/mcp`] },
      authorization_servers: stringList('The issuer of this server.', [ISSUER]),
      scopes_supported: stringList('Scopes a token may carry.', ['health:read', 'sync']),
      bearer_methods_supported: stringList('Only the Authorization header.', ['header']),
      resource_name: { type: 'string', examples: ['HRVault'] },
      resource_documentation: { type: 'string', format: 'uri' },
    },
    ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
    'RFC 9728 protected-resource metadata of the MCP endpoint.'
  ),
  AuthorizationServerMetadata: withRequired(
    {
      issuer: { type: 'string', format: 'uri', description: 'APP_URL.' },
      authorization_endpoint: { type: 'string', format: 'uri' },
      token_endpoint: { type: 'string', format: 'uri' },
      registration_endpoint: { type: 'string', format: 'uri' },
      revocation_endpoint: { type: 'string', format: 'uri' },
      scopes_supported: stringList('', ['health:read', 'sync']),
      response_types_supported: stringList('', ['code']),
      response_modes_supported: stringList('', ['query']),
      grant_types_supported: stringList('', ['authorization_code', 'refresh_token']),
      code_challenge_methods_supported: stringList('S256 only; plain is refused.', ['S256']),
      token_endpoint_auth_methods_supported: stringList('', ['none', 'client_secret_basic', 'client_secret_post']),
      revocation_endpoint_auth_methods_supported: stringList('', ['none', 'client_secret_basic', 'client_secret_post']),
      authorization_response_iss_parameter_supported: { type: 'boolean', description: 'RFC 9207: `iss` is in every authorization response.' },
      service_documentation: { type: 'string', format: 'uri' },
    },
    ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'response_types_supported', 'grant_types_supported', 'code_challenge_methods_supported'],
    'RFC 8414 authorization-server metadata.'
  ),
  ClientRegistrationRequest: withRequired(
    {
      redirect_uris: stringList('1–10 exact URIs: https, or http on localhost / 127.0.0.1 / [::1] (any port matches at authorization, RFC 8252).', ['https://claude.ai/api/mcp/auth_callback']),
      client_name: { type: 'string', maxLength: 200, description: 'Shown on the consent page and in Connected apps.' },
      token_endpoint_auth_method: {
        type: 'string',
        enum: ['none', 'client_secret_basic', 'client_secret_post'],
        default: 'client_secret_basic',
        description: '`none` for public clients (PKCE only); otherwise a secret is issued.',
      },
      grant_types: stringList('Subset of authorization_code, refresh_token.', ['authorization_code', 'refresh_token']),
      response_types: stringList('Only code.', ['code']),
      client_uri: { type: 'string', format: 'uri' },
      software_id: { type: 'string' },
      software_version: { type: 'string' },
      scope: { type: 'string', description: 'Accepted and ignored: scopes are chosen on the consent page.' },
    },
    ['redirect_uris']
  ),
  ClientRegistration: withRequired(
    {
      client_id: { type: 'string', examples: ['hvc_3q2+7w-EXAMPLEid'] },
      client_id_issued_at: { type: 'integer', description: 'Seconds since the epoch.' },
      client_secret: { type: 'string', description: 'Confidential clients only; shown once, stored as SHA-256.' },
      client_secret_expires_at: { type: 'integer', description: '0: never expires.' },
      client_name: { type: 'string' },
      redirect_uris: { type: 'array', items: { type: 'string' } },
      grant_types: { type: 'array', items: { type: 'string' } },
      response_types: { type: 'array', items: { type: 'string' } },
      token_endpoint_auth_method: { type: 'string' },
      client_uri: { type: 'string' },
      software_id: { type: 'string' },
      software_version: { type: 'string' },
    },
    ['client_id', 'client_id_issued_at', 'client_name', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method']
  ),
  TokenRequest: withRequired(
    {
      grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
      code: { type: 'string', description: 'authorization_code: the code from the redirect (single use, 5 minutes).' },
      code_verifier: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$', description: 'authorization_code: the PKCE verifier.' },
      redirect_uri: { type: 'string', description: 'authorization_code: must equal the one of the authorization request when sent.' },
      refresh_token: { type: 'string', description: 'refresh_token: spent by the call (rotation); presenting it again revokes the grant.' },
      scope: { type: 'string', description: 'refresh_token: may narrow the granted scopes.' },
      resource: { type: 'string', description: 'RFC 8707: must be `<APP_URL>/mcp` when sent.' },
      client_id: { type: 'string', description: 'Public clients and client_secret_post.' },
      client_secret: { type: 'string', description: 'client_secret_post.' },
    },
    ['grant_type']
  ),
  TokenResponse: withRequired(
    {
      access_token: { type: 'string', description: 'Bearer token for `/mcp` (`hva_…`).' },
      token_type: { type: 'string', const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Seconds (3600).' },
      refresh_token: { type: 'string', description: 'Rotated on every refresh (`hvr_…`, 30 days).' },
      scope: { type: 'string', description: 'Space-separated scopes of the access token.' },
    },
    ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']
  ),
  RevocationRequest: withRequired(
    {
      token: { type: 'string', description: 'An access token (revokes itself) or a refresh token (revokes the whole grant).' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      client_id: { type: 'string' },
      client_secret: { type: 'string' },
    },
    ['token']
  ),
}

const authorizeParameters = [
  ['response_type', true, 'Must be `code`.'],
  ['client_id', true, 'From registration.'],
  ['redirect_uri', false, 'One of the registered URIs (may be omitted when exactly one is registered).'],
  ['code_challenge', true, 'BASE64URL(SHA-256(code_verifier)), 43 characters.'],
  ['code_challenge_method', true, 'Must be `S256`.'],
  ['state', false, 'Echoed in the redirect.'],
  ['scope', false, 'Space-separated `health:read` and/or `sync`; the admin confirms or changes them.'],
  ['resource', false, 'RFC 8707: must be `<APP_URL>/mcp` when sent.'],
].map(([name, required, description]) => ({ name, in: 'query', required, description, schema: { type: 'string' } }))

const formBody = (schema: string, example: Record<string, string>) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: ref(schema), example } },
})

const metadataResponse = (schema: string, example: Record<string, unknown>) => ({
  200: {
    description: 'The metadata document (cacheable for an hour).',
    content: { 'application/json': { schema: ref(schema), example } },
  },
  ...headersTooLargeResponse(),
})

const protectedResourceExample = {
  resource: `${ISSUER}/mcp`,
  authorization_servers: [ISSUER],
  scopes_supported: ['health:read', 'sync'],
  bearer_methods_supported: ['header'],
  resource_name: 'HRVault',
}

export const paths: OpenApiModule['paths'] = {
  '/.well-known/oauth-protected-resource': {
    get: {
      tags: ['OAuth'],
      summary: 'Protected-resource metadata of the MCP endpoint (RFC 9728)',
      description:
        'Where an MCP client learns which authorization server issues tokens for `<APP_URL>/mcp` and which ' +
        'scopes exist; a 401 from `/mcp` points here in its `WWW-Authenticate` header.',
      operationId: 'getProtectedResourceMetadata',
      security: [],
      responses: metadataResponse('ProtectedResourceMetadata', protectedResourceExample),
    },
  },
  '/.well-known/oauth-protected-resource/mcp': {
    get: {
      tags: ['OAuth'],
      summary: 'Protected-resource metadata, path-suffixed form for `/mcp`',
      description: 'The same document; MCP clients look here first for the resource `<APP_URL>/mcp`.',
      operationId: 'getMcpProtectedResourceMetadata',
      security: [],
      responses: metadataResponse('ProtectedResourceMetadata', protectedResourceExample),
    },
  },
  '/.well-known/oauth-authorization-server': {
    get: {
      tags: ['OAuth'],
      summary: 'Authorization-server metadata (RFC 8414)',
      description: '`/.well-known/openid-configuration` is not served (404): HRVault issues no ID tokens.',
      operationId: 'getAuthorizationServerMetadata',
      security: [],
      responses: metadataResponse('AuthorizationServerMetadata', {
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/oauth/authorize`,
        token_endpoint: `${ISSUER}/oauth/token`,
        registration_endpoint: `${ISSUER}/oauth/register`,
        revocation_endpoint: `${ISSUER}/oauth/revoke`,
        scopes_supported: ['health:read', 'sync'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        authorization_response_iss_parameter_supported: true,
      }),
    },
  },
  '/oauth/register': {
    post: {
      tags: ['OAuth'],
      summary: 'Register a client (RFC 7591)',
      description: `Open registration, limited to 20 per address per hour (429 problem with Retry-After).`,
      operationId: 'registerOAuthClient',
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('ClientRegistrationRequest'),
            example: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'none' },
          },
        },
      },
      responses: {
        201: {
          description: 'Registered.',
          content: {
            'application/json': {
              schema: ref('ClientRegistration'),
              example: {
                client_id: 'hvc_Vb7Qm0yT1cXk3rP9aW2sLg',
                client_id_issued_at: 1764000000,
                client_name: 'Claude',
                redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
                grant_types: ['authorization_code', 'refresh_token'],
                response_types: ['code'],
                token_endpoint_auth_method: 'none',
              },
            },
          },
        },
        ...oauthErrors([[400, 'invalid_redirect_uri (not https and not loopback http, a fragment, credentials) or invalid_client_metadata.', ['invalid_redirect_uri']]]),
        ...errorResponses(429),
      },
    },
  },
  '/oauth/authorize': {
    get: {
      tags: ['OAuth'],
      summary: 'Authorization endpoint (browser)',
      description:
        'A browser page, not an API call. Needs an admin session: a logged-out visitor is sent to the admin login and ' +
        'back. Shows the consent page (client name, redirect host, the HRVault user the client may read, scopes). ' +
        'The decision is posted to the same URL (admin session and CSRF token); the browser then goes to ' +
        '`redirect_uri?code=…&state=…&iss=…` or `?error=access_denied&state=…&iss=…`. Invalid PKCE, response_type, scope ' +
        'or resource are also returned there as `error=`; an unknown client or unregistered redirect_uri is shown as an ' +
        'error page (400) and never redirected.',
      operationId: 'authorizeOAuthClient',
      security: [{ adminSession: [] }],
      parameters: authorizeParameters,
      responses: {
        200: { description: 'The consent page (HTML).', content: { 'text/html': { schema: { type: 'string' } } } },
        302: { description: 'To the admin login (logged out), or to the client with an `error`.' },
        400: { description: 'Error page: unknown client, unregistered or missing redirect_uri, malformed parameters.', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
  },
  '/oauth/token': {
    post: {
      tags: ['OAuth'],
      summary: 'Token endpoint',
      description:
        'authorization_code (with the PKCE verifier; the code is single-use and bound to the client, redirect URI and ' +
        'resource; a replayed code revokes the tokens it produced) or refresh_token (rotation: the presented token is ' +
        'spent; presenting a spent one revokes the whole grant). Public clients send `client_id`; confidential clients ' +
        'authenticate with HTTP Basic or `client_id` + `client_secret` in the body.',
      operationId: 'requestOAuthToken',
      security: [],
      requestBody: formBody('TokenRequest', {
        grant_type: 'authorization_code',
        code: 'hvz_Jq0sW7tYk2LmN5pR8vX1cB4dF6gH9jK3eA0uZiOyQw',
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
        client_id: 'hvc_Vb7Qm0yT1cXk3rP9aW2sLg',
        resource: `${ISSUER}/mcp`,
      }),
      responses: {
        200: {
          description: 'A new access and refresh token (`Cache-Control: no-store`).',
          content: {
            'application/json': {
              schema: ref('TokenResponse'),
              example: {
                access_token: 'hva_4fJ2kQ9xZr7LmW0pT3sVbN8cYd1eHgUa5iKoRq6wXyE',
                token_type: 'Bearer',
                expires_in: 3600,
                refresh_token: 'hvr_Tb9mC2xQ7kW4pL0zN6vR3sJ8hY1dF5gA2uE7iO4wKcM',
                scope: 'health:read sync',
              },
            },
          },
        },
        ...oauthErrors([
          [400, 'invalid_request, invalid_grant (unknown, expired, used or foreign code or refresh token; wrong verifier; other redirect_uri), unsupported_grant_type, invalid_scope, invalid_target.', ['invalid_grant']],
          [401, 'invalid_client (unknown client or wrong secret; `WWW-Authenticate: Basic` when Basic was used).', ['invalid_client']],
        ]),
      },
    },
  },
  '/oauth/revoke': {
    post: {
      tags: ['OAuth'],
      summary: 'Revoke a token (RFC 7009)',
      description:
        'A refresh token revokes its whole grant (every token of the connected app); an access token revokes itself. ' +
        'Unknown tokens and tokens of other clients are answered 200 too, and left alone.',
      operationId: 'revokeOAuthToken',
      security: [],
      requestBody: formBody('RevocationRequest', { token: 'hvr_Tb9mC2xQ7kW4pL0zN6vR3sJ8hY1dF5gA2uE7iO4wKcM', token_type_hint: 'refresh_token', client_id: 'hvc_Vb7Qm0yT1cXk3rP9aW2sLg' }),
      responses: {
        200: { description: 'Revoked, or nothing to revoke.' },
        ...oauthErrors([
          [400, 'invalid_request (no token).', ['invalid_request']],
          [401, 'invalid_client.', ['invalid_client']],
        ]),
      },
    },
  },
}

import { Exception } from '@adonisjs/core/exceptions'

/**
 * A request to /mcp without a valid API key or OAuth access token (401). The challenge names the
 * protected-resource metadata (RFC 9728), where a connector finds the authorization server; a
 * credential that was presented but is not valid adds `error="invalid_token"` (RFC 6750 §3.1), so
 * an OAuth client knows to refresh or re-authorize.
 */
export default class McpUnauthorizedException extends Exception {
  static status = 401
  static code = 'E_MCP_UNAUTHORIZED'
  headers: Record<string, string>

  constructor(message: string, resourceMetadataUrl: string, invalidToken = false) {
    super(message)
    const error = invalidToken ? ', error="invalid_token"' : ''
    this.headers = { 'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"${error}` }
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OAuthMetadataService } from '#services/oauth/oauth_metadata_service'

/** Discovery documents: RFC 9728 protected-resource metadata and RFC 8414 authorization-server metadata. */
@inject()
export default class MetadataController {
  constructor(protected metadata: OAuthMetadataService) {}

  /** `/.well-known/oauth-protected-resource` and its `/mcp`-suffixed form. */
  async protectedResource({ response }: HttpContext) {
    return response.header('Cache-Control', 'public, max-age=3600').json(this.metadata.protectedResource())
  }

  /** `/.well-known/oauth-authorization-server` */
  async authorizationServer({ response }: HttpContext) {
    return response.header('Cache-Control', 'public, max-age=3600').json(this.metadata.authorizationServer())
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AdminApiKeysService } from '#services/admin/admin_api_keys_service'
import { apiKeyParamValidator, createApiKeyValidator } from '#validators/admin'
import UnknownUserException from '#exceptions/unknown_user_exception'
import { AdminUsersService } from '#services/admin/admin_users_service'
import ApiKeyTransformer from '#transformers/admin/api_key_transformer'
import TokenTransformer from '#transformers/ops/token_transformer'

/** /admin/api-keys: list, create (the value is shown once), revoke. */
@inject()
export default class ApiKeysController {
  constructor(
    protected service: AdminApiKeysService,
    protected users: AdminUsersService
  ) {}

  async index({ inertia, session }: HttpContext) {
    return inertia.render('api_keys', {
      keys: ApiKeyTransformer.transform(await this.service.list()),
      opsTokens: TokenTransformer.transform(this.service.opsTokens()),
      users: await this.users.externalIds(),
      // The plain key exists only in this one flash message, right after creation.
      created: (session.flashMessages.get('createdKey') as { name: string; key: string } | undefined) ?? null,
    })
  }

  async store({ request, response, session }: HttpContext) {
    const { name, user_id: userId } = await request.validateUsing(createApiKeyValidator)
    try {
      const { apiKey, plain } = await this.service.create(name, userId ?? null)
      session.flash('createdKey', { name: apiKey.name, key: plain })
    } catch (error) {
      if (!(error instanceof UnknownUserException)) throw error
      session.flash('inputErrorsBag', { user_id: [`User "${userId}" does not exist.`] })
    }
    return response.redirect('/admin/api-keys')
  }

  async destroy({ request, response, session }: HttpContext) {
    const { params } = await request.validateUsing(apiKeyParamValidator)
    if (await this.service.revoke(params.prefix)) {
      session.flash('success', `Key ${params.prefix}… revoked.`)
    } else {
      session.flash('error', `No active key ${params.prefix}….`)
    }
    return response.redirect('/admin/api-keys')
  }
}

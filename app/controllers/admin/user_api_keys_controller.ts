import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AdminUserDetailService } from '#services/admin/admin_user_detail_service'
import { userApiKeyParamValidator } from '#validators/admin_users'

/** DELETE /admin/users/:user/api-keys/:prefix: revokes one of the user's keys from their page. */
@inject()
export default class UserApiKeysController {
  constructor(protected details: AdminUserDetailService) {}

  async destroy({ request, response, session }: HttpContext) {
    const { params } = await request.validateUsing(userApiKeyParamValidator)
    if (await this.details.revokeKey(params.user, params.prefix)) {
      session.flash('success', `Key ${params.prefix}… revoked.`)
    } else {
      session.flash('error', `${params.user} has no active key ${params.prefix}….`)
    }
    return response.redirect(`/admin/users/${encodeURIComponent(params.user)}`)
  }
}

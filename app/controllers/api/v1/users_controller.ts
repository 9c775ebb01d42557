import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { UserDeletionService } from '#services/users/user_deletion_service'
import { deleteUserValidator } from '#validators/users'

/** /users/{user_id}: the erasure of a user (the only action on the user itself). */
@inject()
export default class UsersController {
  constructor(protected deletions: UserDeletionService) {}

  /** GDPR erasure: de-registers at Polar and deletes every row of the user; 204, then 404. */
  async destroy({ request, response, apiKey }: HttpContext) {
    const { params } = await request.validateUsing(deleteUserValidator)
    await this.deletions.delete(params.user_id, { type: 'api_key', name: apiKey.name })
    return response.noContent()
  }
}

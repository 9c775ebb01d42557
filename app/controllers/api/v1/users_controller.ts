import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { UserDeletionService } from '#services/users/user_deletion_service'
import { UserDirectoryService } from '#services/users/user_directory_service'
import { linkNextPage, pageRequest } from '#services/api/pagination'
import UserDirectoryTransformer from '#transformers/user_directory_transformer'
import { deleteUserValidator, listUsersValidator, showUserValidator } from '#validators/users'

/** /users and /users/{user_id}: discovery (the users a key may see) and the erasure of a user. */
@inject()
export default class UsersController {
  constructor(
    protected deletions: UserDeletionService,
    protected directory: UserDirectoryService
  ) {}

  /** Service key: every user, by id, in pages; a user-scoped key: its own user only. */
  async index(ctx: HttpContext) {
    const query = await ctx.request.validateUsing(listUsersValidator)
    const page = await this.directory.list(ctx.apiKey, pageRequest(query))
    linkNextPage(ctx, page.next)
    return ctx.serialize(UserDirectoryTransformer.transform(page.rows))
  }

  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showUserValidator)
    return serialize(UserDirectoryTransformer.transform(await this.directory.find(params.user_id)))
  }

  /** GDPR erasure: de-registers at Polar and deletes every row of the user; 204, then 404. */
  async destroy({ request, response, apiKey }: HttpContext) {
    const { params } = await request.validateUsing(deleteUserValidator)
    await this.deletions.delete(params.user_id, { type: 'api_key', name: apiKey.name })
    return response.noContent()
  }
}

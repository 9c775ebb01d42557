import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { UserService } from '#services/user_service'
import { SyncRunService } from '#services/sync/sync_run_service'
import { linkNextPage, pageRequest } from '#services/api/pagination'
import SyncRunTransformer from '#transformers/sync_run_transformer'
import { syncRunValidator, syncRunsValidator } from '#validators/sync'

/** /users/{user_id}/sync/runs: a user's sync runs, newest first, and one run. */
@inject()
export default class SyncRunsController {
  constructor(
    protected users: UserService,
    protected runs: SyncRunService
  ) {}

  /** A page of runs (a JSON array); `Link: rel="next"` when more exist. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(syncRunsValidator)
    const user = await this.users.findOrFail(params.user_id)
    const page = await this.runs.list(user, pageRequest(query))
    linkNextPage(ctx, page.next)
    return ctx.serialize(SyncRunTransformer.transform(page.rows.map((run) => ({ run, userId: user.externalId }))))
  }

  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(syncRunValidator)
    const user = await this.users.findOrFail(params.user_id)
    const run = await this.runs.find(user, params.run_id)
    return serialize(SyncRunTransformer.transform({ run, userId: user.externalId }))
  }
}

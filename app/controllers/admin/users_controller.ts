import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AdminUsersService } from '#services/admin/admin_users_service'
import { AdminSyncService } from '#services/admin/admin_sync_service'
import { UserService } from '#services/user_service'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'
import UserTransformer from '#transformers/admin/user_transformer'
import {
  createUserValidator,
  syncPollValidator,
  userParamValidator,
  usersPageValidator,
} from '#validators/admin'

/** /admin/users: users with last sync and record counts, Sync now with progress, exports. */
@inject()
export default class UsersController {
  constructor(
    protected users: AdminUsersService,
    protected syncs: AdminSyncService,
    protected userService: UserService
  ) {}

  async index({ inertia, request }: HttpContext) {
    const { days = 30 } = await request.validateUsing(usersPageValidator)
    return inertia.render('users', { users: UserTransformer.transform(await this.users.list()), days })
  }

  async store({ request, response, session }: HttpContext) {
    const { user_id: userId } = await request.validateUsing(createUserValidator)
    await this.userService.findOrCreate(userId)
    session.flash('success', `User ${userId} is registered. Connect Polar to sync their data.`)
    return response.redirect('/admin/users')
  }

  /** Sync now: enqueues the user's sync and answers (JSON) with what to poll. */
  async sync({ request, response, serialize }: HttpContext) {
    const { params } = await request.validateUsing(userParamValidator)
    const outcome = await this.syncs.start(params.user)
    switch (outcome.state) {
      case 'unknown_user':
        return response.status(404).json({ message: `User ${params.user} does not exist.` })
      case 'not_connected':
        return response.status(409).json({
          message: `No Polar token is stored for ${params.user}. Connect their Polar account first.`,
        })
      case 'running':
        return serialize({ state: 'running', run: SyncRunTransformer.transform(outcome.run) })
      case 'queued':
        return response.status(202).json({ state: 'queued', job_id: outcome.jobId })
      case 'refused':
        return response.status(outcome.status).header('Retry-After', String(outcome.retryAfter)).json({ message: outcome.message })
    }
  }

  /** Progress of a Sync now, polled by the page about once a second (JSON). */
  async syncStatus({ request, response, serialize }: HttpContext) {
    const { params, job, run } = await request.validateUsing(syncPollValidator)
    const outcome = await this.syncs.poll(params.user, job, run)
    if (outcome.state === 'unknown_user') return response.status(404).json({ message: 'Unknown user.' })
    if (outcome.state === 'queued') return { state: 'queued' }
    return serialize({ state: 'run', run: SyncRunTransformer.transform(outcome.run) })
  }
}

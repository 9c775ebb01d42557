import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AdminUsersService } from '#services/admin/admin_users_service'
import { AdminSyncService } from '#services/admin/admin_sync_service'
import { AdminUserDetailService } from '#services/admin/admin_user_detail_service'
import { UserService } from '#services/user_service'
import { UserDeletionService } from '#services/users/user_deletion_service'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'
import UserDetailTransformer from '#transformers/admin/user_detail_transformer'
import UserTransformer from '#transformers/admin/user_transformer'
import { deleteAdminUserValidator, updateUserValidator } from '#validators/admin_users'
import {
  createUserValidator,
  syncPollValidator,
  userParamValidator,
  usersPageValidator,
} from '#validators/admin'

/**
 * /admin/users: users with last sync and record counts, Sync now with progress, exports; and
 * /admin/users/:user, one user's page (display name, data coverage, sync runs, API keys, erasure).
 */
@inject()
export default class UsersController {
  constructor(
    protected users: AdminUsersService,
    protected syncs: AdminSyncService,
    protected userService: UserService,
    protected details: AdminUserDetailService,
    protected deletions: UserDeletionService
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

  async show({ inertia, request }: HttpContext) {
    const { params } = await request.validateUsing(userParamValidator)
    return inertia.render('users/show', { detail: UserDetailTransformer.transform(await this.details.show(params.user)) })
  }

  /** Sets or removes the display name shown beside the Polar id. */
  async update({ request, response, session }: HttpContext) {
    const { params, display_name: displayName } = await request.validateUsing(updateUserValidator)
    const user = await this.details.rename(params.user, displayName)
    session.flash('success', user.displayName ? `Display name set to "${user.displayName}".` : 'Display name removed.')
    return response.redirect(`/admin/users/${encodeURIComponent(params.user)}`)
  }

  /** Erases the user (the API's erasure service) once the user id was typed to confirm. */
  async destroy({ request, response, session, auth }: HttpContext) {
    const { params } = await request.validateUsing(deleteAdminUserValidator)
    const admin = auth.use('web').getUserOrFail() as unknown as { email: string }
    try {
      await this.deletions.delete(params.user, { type: 'admin', name: admin.email })
    } catch (error) {
      if (!(error instanceof SyncInProgressException)) throw error
      session.flash('error', error.message)
      return response.redirect(`/admin/users/${encodeURIComponent(params.user)}`)
    }
    session.flash('success', `User ${params.user} and all their stored data were deleted.`)
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

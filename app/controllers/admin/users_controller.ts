import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { AdminUsersService } from '#services/admin/admin_users_service'
import { AdminSyncService } from '#services/admin/admin_sync_service'
import { UserService } from '#services/user_service'
import {
  createUserValidator,
  syncRunParamsValidator,
  userParamValidator,
  usersPageValidator,
} from '#validators/admin'

/** /admin/users: users with last sync and record counts, Sync now with progress, exports. */
@inject()
export default class UsersController {
  constructor(protected users: AdminUsersService) {}

  async index({ inertia, request }: HttpContext) {
    const { days = 30 } = await request.validateUsing(usersPageValidator)
    return inertia.render('users', { users: await this.users.list(), days })
  }

  async store({ request, response, session }: HttpContext) {
    const { user_id: userId } = await request.validateUsing(createUserValidator)
    await new UserService().findOrCreate(userId)
    session.flash('success', `User ${userId} is registered. Connect Polar to sync their data.`)
    return response.redirect('/admin/users')
  }

  /** Starts a sync in the background and answers with the run to poll (JSON). */
  async sync({ request, response }: HttpContext) {
    const { params } = await request.validateUsing(userParamValidator)
    const outcome = await new AdminSyncService().start(params.user)
    return response.status(outcome.status).json(outcome.body)
  }

  /** The progress of a sync run (polled by the page every second). */
  async syncRun({ request, response }: HttpContext) {
    const { params } = await request.validateUsing(syncRunParamsValidator)
    const run = await this.users.syncRun(params.user, params.run)
    if (!run) return response.status(404).json({ message: 'No such sync run for this user.' })
    return run
  }
}

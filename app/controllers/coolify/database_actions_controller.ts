import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DatabasesService } from '#services/coolify/databases_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { stopResourceValidator, triggerBackupValidator, uuidParamValidator } from '#validators/coolify'

/** Start, stop, restart and "back up now" of one database; backup schedules. */
@inject()
export default class DatabaseActionsController {
  constructor(protected databases: DatabasesService) {}

  /** 400 "Database is already running." passes through. */
  async start(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(uuidParamValidator)
    return this.databases.start(dashboardActor(ctx), params.uuid)
  }

  async stop(ctx: HttpContext) {
    const { params, ...options } = await ctx.request.validateUsing(stopResourceValidator)
    return this.databases.stop(dashboardActor(ctx), params.uuid, options)
  }

  async restart(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(uuidParamValidator)
    return this.databases.restart(dashboardActor(ctx), params.uuid)
  }

  /** POST /databases/:uuid/backup — `{message, backup_uuid, created}`. */
  async backup(ctx: HttpContext) {
    const { params, ...input } = await ctx.request.validateUsing(triggerBackupValidator)
    return this.databases.backupNow(dashboardActor(ctx), params.uuid, input)
  }

  /** GET /databases/:uuid/backups — schedules, each with its `executions`. */
  async backups({ request }: HttpContext) {
    const { params } = await request.validateUsing(uuidParamValidator)
    return this.databases.backups(params.uuid)
  }
}

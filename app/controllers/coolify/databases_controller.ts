import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DatabasesService } from '#services/coolify/databases_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { listDatabasesValidator, revealableShowValidator, updateDatabaseValidator } from '#validators/coolify'

/** {dashboard}/api/databases[/:uuid] — passwords and URL credentials masked unless revealed. */
@inject()
export default class DatabasesController {
  constructor(protected databases: DatabasesService) {}

  async index(ctx: HttpContext) {
    const { reveal } = await ctx.request.validateUsing(listDatabasesValidator)
    return this.databases.list(dashboardActor(ctx), reveal ?? false)
  }

  async show(ctx: HttpContext) {
    const { params, reveal } = await ctx.request.validateUsing(revealableShowValidator)
    return this.databases.show(dashboardActor(ctx), params.uuid, reveal ?? false)
  }

  async update(ctx: HttpContext) {
    const { params, ...changes } = await ctx.request.validateUsing(updateDatabaseValidator)
    return this.databases.update(dashboardActor(ctx), params.uuid, changes)
  }
}

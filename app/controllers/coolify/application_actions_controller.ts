import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ApplicationsService } from '#services/coolify/applications_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import {
  applicationLogsValidator,
  deployApplicationValidator,
  startApplicationValidator,
  stopResourceValidator,
  uuidParamValidator,
} from '#validators/coolify'

/** Deploy, start, stop, restart and logs of one application. */
@inject()
export default class ApplicationActionsController {
  constructor(protected applications: ApplicationsService) {}

  /** `POST /deploy?uuid=&force=` upstream; `{message, resource_uuid, deployment_uuid, force}`. */
  async deploy(ctx: HttpContext) {
    const { params, force } = await ctx.request.validateUsing(deployApplicationValidator)
    return this.applications.deploy(dashboardActor(ctx), params.uuid, force ?? false)
  }

  async start(ctx: HttpContext) {
    const { params, ...options } = await ctx.request.validateUsing(startApplicationValidator)
    return this.applications.start(dashboardActor(ctx), params.uuid, options)
  }

  async stop(ctx: HttpContext) {
    const { params, ...options } = await ctx.request.validateUsing(stopResourceValidator)
    return this.applications.stop(dashboardActor(ctx), params.uuid, options)
  }

  async restart(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(uuidParamValidator)
    return this.applications.restart(dashboardActor(ctx), params.uuid)
  }

  /** `{logs: "<text>"}`, the last `lines` lines (default 100); 400 when not running. */
  async logs({ request }: HttpContext) {
    const { params, lines, show_timestamps: showTimestamps } = await request.validateUsing(applicationLogsValidator)
    return this.applications.logs(params.uuid, lines ?? 100, showTimestamps)
  }
}

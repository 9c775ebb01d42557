import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ApplicationsService } from '#services/coolify/applications_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { revealableShowValidator, updateApplicationValidator } from '#validators/coolify'

/** GET/PATCH {dashboard}/api/applications/:uuid */
@inject()
export default class ApplicationsController {
  constructor(protected applications: ApplicationsService) {}

  /** The application; webhook secrets and basic-auth password masked unless `reveal=true`. */
  async show(ctx: HttpContext) {
    const { params, reveal } = await ctx.request.validateUsing(revealableShowValidator)
    return this.applications.show(dashboardActor(ctx), params.uuid, reveal ?? false)
  }

  /** Forwards the validated Coolify fields (`domains`, `limits_cpus` …); answers `{uuid}`. */
  async update(ctx: HttpContext) {
    const { params, ...changes } = await ctx.request.validateUsing(updateApplicationValidator)
    return this.applications.update(dashboardActor(ctx), params.uuid, changes)
  }
}

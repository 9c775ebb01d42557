import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { EnvironmentVariablesService } from '#services/coolify/environment_variables_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { createEnvValidator, deleteEnvValidator, revealableShowValidator, updateEnvValidator } from '#validators/coolify'

/** {dashboard}/api/applications/:uuid/envs[/:env] — `:env` is a key or a uuid. */
@inject()
export default class EnvironmentVariablesController {
  constructor(protected envs: EnvironmentVariablesService) {}

  /** Values masked unless `reveal=true` (audited). */
  async index(ctx: HttpContext) {
    const { params, reveal } = await ctx.request.validateUsing(revealableShowValidator)
    return this.envs.list(dashboardActor(ctx), params.uuid, reveal ?? false)
  }

  /** 201 `{uuid}`; 409 when the key exists (Coolify's answer). */
  async store(ctx: HttpContext) {
    const { params, ...input } = await ctx.request.validateUsing(createEnvValidator)
    const created = await this.envs.create(dashboardActor(ctx), params.uuid, input)
    return ctx.response.created(created)
  }

  /** The updated variable, value masked. */
  async update(ctx: HttpContext) {
    const { params, ...changes } = await ctx.request.validateUsing(updateEnvValidator)
    return this.envs.update(dashboardActor(ctx), params.uuid, params.env, changes)
  }

  async destroy(ctx: HttpContext) {
    const { params, is_preview: isPreview } = await ctx.request.validateUsing(deleteEnvValidator)
    return this.envs.remove(dashboardActor(ctx), params.uuid, params.env, isPreview)
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { StacksService } from '#services/coolify/stacks_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { restartServiceValidator, revealableShowValidator, stopResourceValidator, uuidParamValidator } from '#validators/coolify'

/** {dashboard}/api/services[/:uuid[/start|/stop|/restart]] — Coolify one-click services. */
@inject()
export default class ServicesController {
  constructor(protected stacks: StacksService) {}

  async index() {
    return this.stacks.list()
  }

  async show(ctx: HttpContext) {
    const { params, reveal } = await ctx.request.validateUsing(revealableShowValidator)
    return this.stacks.show(dashboardActor(ctx), params.uuid, reveal ?? false)
  }

  /** 400 "Service is already running." passes through. */
  async start(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(uuidParamValidator)
    return this.stacks.start(dashboardActor(ctx), params.uuid)
  }

  async stop(ctx: HttpContext) {
    const { params, ...options } = await ctx.request.validateUsing(stopResourceValidator)
    return this.stacks.stop(dashboardActor(ctx), params.uuid, options)
  }

  async restart(ctx: HttpContext) {
    const { params, ...options } = await ctx.request.validateUsing(restartServiceValidator)
    return this.stacks.restart(dashboardActor(ctx), params.uuid, options)
  }
}

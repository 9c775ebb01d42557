import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { DeploymentsService } from '#services/coolify/deployments_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { deploymentLogsValidator, listDeploymentsValidator, uuidParamValidator } from '#validators/coolify'

/** Deployments: history of an application, details, logs, cancel. */
@inject()
export default class DeploymentsController {
  constructor(protected deployments: DeploymentsService) {}

  /** GET /applications/:uuid/deployments — `{count, skip, take, deployments}`, newest first. */
  async index({ request }: HttpContext) {
    const { params, skip, take } = await request.validateUsing(listDeploymentsValidator)
    return this.deployments.listForApplication(params.uuid, skip ?? 0, take ?? 10)
  }

  /** GET /deployments/:uuid — without the raw `logs` string, plus `duration_seconds`. */
  async show({ request }: HttpContext) {
    const { params } = await request.validateUsing(uuidParamValidator)
    return this.deployments.show(params.uuid)
  }

  /** GET /deployments/:uuid/logs — parsed entries, oldest first. */
  async logs({ request }: HttpContext) {
    const { params, include_hidden: includeHidden } = await request.validateUsing(deploymentLogsValidator)
    return this.deployments.logs(params.uuid, includeHidden ?? false)
  }

  /** POST /deployments/:uuid/cancel */
  async cancel(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(uuidParamValidator)
    return this.deployments.cancel(dashboardActor(ctx), params.uuid)
  }
}

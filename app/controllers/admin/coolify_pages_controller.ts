import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { dashboardApiPrefix } from '#config/surfaces'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { coolifyAppParamValidator } from '#validators/admin'

/**
 * The Coolify dashboard pages. They only carry configuration; the browser
 * reads and changes everything through the dashboard JSON API.
 */
@inject()
export default class CoolifyPagesController {
  constructor(protected coolify: CoolifyClient) {}

  async index({ inertia }: HttpContext) {
    return inertia.render('coolify/index', {
      apiPrefix: dashboardApiPrefix,
      configured: this.coolify.configured,
      projectScope: env.get('COOLIFY_PROJECT_UUID') ?? null,
    })
  }

  async ops({ inertia, request }: HttpContext) {
    const { params } = await request.validateUsing(coolifyAppParamValidator)
    return inertia.render('coolify/ops', { apiPrefix: dashboardApiPrefix, appUuid: params.uuid })
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ServersService } from '#services/coolify/servers_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import { serverDomainsValidator, uuidParamValidator } from '#validators/coolify'

/** {dashboard}/api/servers[/:uuid[/resources|/domains|/validate]] */
@inject()
export default class ServersController {
  constructor(protected servers: ServersService) {}

  async index() {
    return this.servers.list()
  }

  async show({ request }: HttpContext) {
    const { params } = await request.validateUsing(uuidParamValidator)
    return this.servers.show(params.uuid)
  }

  async resources({ request }: HttpContext) {
    const { params } = await request.validateUsing(uuidParamValidator)
    return this.servers.resources(params.uuid)
  }

  /** `[{ip, domains}]`; `?uuid=` narrows to one application. */
  async domains({ request }: HttpContext) {
    const { params, uuid } = await request.validateUsing(serverDomainsValidator)
    return this.servers.domains(params.uuid, uuid)
  }

  /** 201 `{message: "Validation started."}` upstream, passed on as 200. */
  async validate(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(uuidParamValidator)
    return this.servers.validate(dashboardActor(ctx), params.uuid)
  }
}

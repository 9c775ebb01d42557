import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsProxyService, type ProxiedResponse } from '#services/coolify/ops_proxy_service'
import { dashboardActor } from '#services/coolify/dashboard_actor'
import {
  opsAppValidator,
  opsConsoleValidator,
  opsFailedJobsValidator,
  opsLogFileValidator,
  opsRetryJobValidator,
} from '#validators/coolify'

/** Answers with the ops API's own status and its JSON re-serialised (403 stays 403); never its content type. */
function passThrough({ response }: HttpContext, proxied: ProxiedResponse) {
  for (const [name, value] of Object.entries(proxied.headers ?? {})) response.header(name, value)
  const contentType = proxied.problem ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8'
  response.status(proxied.status).header('Content-Type', contentType).send(JSON.stringify(proxied.body))
}

/** {dashboard}/api/ops/:app_uuid/… — proxy to the ops API of a deployed application. */
@inject()
export default class OpsProxyController {
  constructor(protected proxy: OpsProxyService) {}

  /** `{configured, reachable, healthy, reason, message}`, always 200. */
  async status({ request }: HttpContext) {
    const { params } = await request.validateUsing(opsAppValidator)
    return this.proxy.status(params.app_uuid)
  }

  async health(ctx: HttpContext) {
    return this.read(ctx, '/health')
  }

  async stats(ctx: HttpContext) {
    return this.read(ctx, '/stats')
  }

  async logs(ctx: HttpContext) {
    return this.read(ctx, '/logs')
  }

  async queue(ctx: HttpContext) {
    return this.read(ctx, '/queue')
  }

  async commands(ctx: HttpContext) {
    return this.read(ctx, '/console')
  }

  /** `level`, `search` and `lines` (default 100) forwarded after validation. */
  async logFile(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(opsLogFileValidator)
    const proxied = await this.proxy.get(params.app_uuid, `/logs/${encodeURIComponent(params.file)}`, {
      lines: query.lines ?? 100,
      level: query.level,
      search: query.search,
    })
    passThrough(ctx, proxied)
  }

  async failedJobs(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(opsFailedJobsValidator)
    passThrough(ctx, await this.proxy.get(params.app_uuid, '/queue/failed', query))
  }

  /** POST console `{command, args?}`: rate-limited per admin and audited. */
  async runCommand(ctx: HttpContext) {
    const { params, ...body } = await ctx.request.validateUsing(opsConsoleValidator)
    passThrough(ctx, await this.proxy.post(dashboardActor(ctx), params.app_uuid, '/console', body, { command: body.command }))
  }

  async retry(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(opsRetryJobValidator)
    passThrough(ctx, await this.proxy.post(dashboardActor(ctx), params.app_uuid, `/queue/retry/${params.id}`, undefined, { id: params.id }))
  }

  async retryAll(ctx: HttpContext) {
    const { params } = await ctx.request.validateUsing(opsAppValidator)
    passThrough(ctx, await this.proxy.post(dashboardActor(ctx), params.app_uuid, '/queue/retry-all', undefined, {}))
  }

  protected async read(ctx: HttpContext, path: string) {
    const { params } = await ctx.request.validateUsing(opsAppValidator)
    passThrough(ctx, await this.proxy.get(params.app_uuid, path))
  }
}

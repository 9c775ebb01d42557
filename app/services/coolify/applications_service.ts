import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { maskSecrets } from '#services/coolify/masking'
import type { CoolifyApplication, DashboardActor } from '#services/coolify/types'

interface DeployAnswer {
  deployments?: Array<{ message?: string; resource_uuid?: string; deployment_uuid?: string }>
}

const path = (uuid: string, rest = '') => `/applications/${encodeURIComponent(uuid)}${rest}`

/**
 * Applications of Coolify (details, deploy, start/stop/restart, logs, settings). Every call
 * is checked against the project scope first, every mutation is audited, and webhook
 * secrets and basic-auth passwords are masked unless revealed (the reveal is audited too).
 */
@inject()
export class ApplicationsService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService,
    protected audit: DashboardAuditService
  ) {}

  async show(actor: DashboardActor, uuid: string, reveal = false) {
    await this.scope.assertApplication(uuid)
    const app = await this.client.get<CoolifyApplication>(path(uuid))
    if (reveal) await this.audit.record(actor, { action: 'coolify.reveal', target: `application:${uuid}`, outcome: 'success' })
    return maskSecrets(app, reveal)
  }

  /**
   * Queues a deployment with `POST /deploy?uuid=…&force=…` (Coolify v4.2+ refuses GET).
   * Never cached: two calls queue two deployments.
   */
  async deploy(actor: DashboardActor, uuid: string, force: boolean) {
    await this.scope.assertApplication(uuid)
    return this.audit.around(actor, { action: 'coolify.deploy', target: `application:${uuid}`, details: { force } }, async () => {
      const answer = await this.client.post<DeployAnswer>('/deploy', { query: { uuid, force } })
      const first = answer.deployments?.find((d) => d.resource_uuid === uuid) ?? answer.deployments?.[0] ?? {}
      return maskSecrets({
        message: first.message ?? null,
        resource_uuid: first.resource_uuid ?? uuid,
        deployment_uuid: first.deployment_uuid ?? null,
        force,
      })
    })
  }

  /** `POST /applications/{uuid}/start` with Coolify's `force` and `instant_deploy` flags. */
  async start(actor: DashboardActor, uuid: string, options: { force?: boolean; instant_deploy?: boolean }) {
    return this.action(actor, uuid, 'start', { force: options.force, instant_deploy: options.instant_deploy })
  }

  /** `POST /applications/{uuid}/stop`; `docker_cleanup` defaults to true upstream. */
  async stop(actor: DashboardActor, uuid: string, options: { docker_cleanup?: boolean }) {
    return this.action(actor, uuid, 'stop', { docker_cleanup: options.docker_cleanup })
  }

  async restart(actor: DashboardActor, uuid: string) {
    return this.action(actor, uuid, 'restart', {})
  }

  /** Container logs (`lines` 1–10000), never cached: they change every second. */
  async logs(uuid: string, lines: number, showTimestamps?: boolean) {
    await this.scope.assertApplication(uuid)
    const answer = await this.client.get<{ logs: string }>(path(uuid, '/logs'), {
      query: { lines, show_timestamps: showTimestamps },
      cache: false,
    })
    return maskSecrets(answer)
  }

  /** `PATCH /applications/{uuid}` with Coolify's field names (`domains`, `limits_cpus` …). */
  async update(actor: DashboardActor, uuid: string, changes: Record<string, unknown>) {
    await this.scope.assertApplication(uuid)
    return this.audit.around(
      actor,
      { action: 'coolify.application.update', target: `application:${uuid}`, details: { fields: Object.keys(changes) } },
      async () => maskSecrets(await this.client.patch<{ uuid: string }>(path(uuid), { body: changes }))
    )
  }

  protected async action(actor: DashboardActor, uuid: string, verb: 'start' | 'stop' | 'restart', query: Record<string, boolean | undefined>) {
    await this.scope.assertApplication(uuid)
    return this.audit.around(actor, { action: `coolify.application.${verb}`, target: `application:${uuid}`, details: query }, async () =>
      maskSecrets(await this.client.post<{ message: string; deployment_uuid?: string }>(path(uuid, `/${verb}`), { query }))
    )
  }
}

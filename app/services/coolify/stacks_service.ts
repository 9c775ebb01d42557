import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { maskSecrets } from '#services/coolify/masking'
import type { CoolifyResourceRef, DashboardActor } from '#services/coolify/types'

const path = (uuid: string, rest = '') => `/services/${encodeURIComponent(uuid)}${rest}`

/**
 * Coolify "services" (one-click stacks such as Plausible): list, details with secrets
 * masked unless revealed, and start/stop/restart.
 */
@inject()
export class StacksService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService,
    protected audit: DashboardAuditService
  ) {}

  async list() {
    return maskSecrets(await this.scope.filterServices(await this.client.get<CoolifyResourceRef[]>('/services')))
  }

  async show(actor: DashboardActor, uuid: string, reveal = false) {
    await this.scope.assertService(uuid)
    const service = await this.client.get<CoolifyResourceRef>(path(uuid))
    if (reveal) await this.audit.record(actor, { action: 'coolify.reveal', target: `service:${uuid}`, outcome: 'success' })
    return maskSecrets(service, reveal)
  }

  async start(actor: DashboardActor, uuid: string) {
    return this.action(actor, uuid, 'start', {})
  }

  /** `docker_cleanup` defaults to true upstream. */
  async stop(actor: DashboardActor, uuid: string, options: { docker_cleanup?: boolean }) {
    return this.action(actor, uuid, 'stop', { docker_cleanup: options.docker_cleanup })
  }

  /** `latest: true` pulls the latest images before restarting. */
  async restart(actor: DashboardActor, uuid: string, options: { latest?: boolean }) {
    return this.action(actor, uuid, 'restart', { latest: options.latest })
  }

  protected async action(actor: DashboardActor, uuid: string, verb: 'start' | 'stop' | 'restart', query: Record<string, boolean | undefined>) {
    await this.scope.assertService(uuid)
    return this.audit.around(actor, { action: `coolify.service.${verb}`, target: `service:${uuid}`, details: query }, async () =>
      maskSecrets(await this.client.post<{ message: string }>(path(uuid, `/${verb}`), { query }))
    )
  }
}

import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { maskSecrets } from '#services/coolify/masking'
import type { CoolifyResourceRef, CoolifyServer, DashboardActor } from '#services/coolify/types'

const path = (uuid: string, rest = '') => `/servers/${encodeURIComponent(uuid)}${rest}`

/**
 * Servers: list, details (Sentinel token and log-drain keys masked), the resources they run,
 * their domains grouped by IP, and connection validation. With a project scope, a server is
 * visible when it runs at least one resource of the project.
 */
@inject()
export class ServersService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService,
    protected audit: DashboardAuditService
  ) {}

  async list() {
    return maskSecrets(await this.scope.filterServers(await this.client.get<CoolifyServer[]>('/servers')))
  }

  async show(uuid: string) {
    await this.scope.assertServer(uuid)
    return maskSecrets(await this.client.get<CoolifyServer>(path(uuid)))
  }

  /** `[{id, uuid, name, type, status, …}]`; with a project scope, only the project's resources. */
  async resources(uuid: string) {
    await this.scope.assertServer(uuid)
    const resources = await this.client.get<CoolifyResourceRef[]>(path(uuid, '/resources'))
    const inventory = await this.scope.inventory()
    if (!inventory) return maskSecrets(resources)
    return maskSecrets(
      resources.filter(
        (r) => inventory.applicationUuids.has(r.uuid) || inventory.databaseUuids.has(r.uuid) || inventory.serviceUuids.has(r.uuid)
      )
    )
  }

  /** `[{ip, domains: [hostname]}]`, optionally for one application (`?uuid=`). */
  async domains(uuid: string, applicationUuid?: string) {
    await this.scope.assertServer(uuid)
    if (applicationUuid) await this.scope.assertApplication(applicationUuid)
    return maskSecrets(await this.client.get<Array<{ ip: string; domains: string[] }>>(path(uuid, '/domains'), { query: { uuid: applicationUuid } }))
  }

  /** `POST /servers/{uuid}/validate` (POST since Coolify v4.2). */
  async validate(actor: DashboardActor, uuid: string) {
    await this.scope.assertServer(uuid)
    return this.audit.around(actor, { action: 'coolify.server.validate', target: `server:${uuid}` }, async () =>
      maskSecrets(await this.client.post<{ message: string }>(path(uuid, '/validate')))
    )
  }
}

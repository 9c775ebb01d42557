import { inject } from '@adonisjs/core'
import env from '#start/env'
import { CoolifyClient } from '#services/coolify/coolify_client'
import CoolifyOutOfScopeException from '#exceptions/coolify_out_of_scope_exception'
import type { CoolifyDatabase, CoolifyEnvironment, CoolifyProject, CoolifyResourceRef } from '#services/coolify/types'

/** Keys of Coolify's environment answer that hold databases (`GET /projects/{uuid}/{env}`). */
const DATABASE_KEYS = ['postgresqls', 'redis', 'mongodbs', 'mysqls', 'mariadbs', 'keydbs', 'dragonflies', 'clickhouses']

/** Every resource of the configured project, by uuid and numeric id. */
export interface ProjectInventory {
  projectUuid: string
  environmentIds: Set<number>
  environments: CoolifyEnvironment[]
  applicationUuids: Set<string>
  applicationIds: Set<string>
  databaseUuids: Set<string>
  serviceUuids: Set<string>
}

/**
 * Optional restriction of the dashboard to one Coolify project (COOLIFY_PROJECT_UUID,
 * DESIGN §6): every `{uuid}` must belong to it, else 403 — also for a uuid that does not
 * exist, so the answer never reveals resources of other projects. Without the setting,
 * every resource of the token's team is allowed.
 */
@inject()
export class ProjectScopeService {
  constructor(protected client: CoolifyClient) {}

  /** The configured project uuid, or null when the dashboard sees the whole team. */
  get projectUuid(): string | null {
    const fromClient = this.client.options.projectUuid
    if (fromClient !== undefined) return fromClient || null
    return env.get('COOLIFY_PROJECT_UUID') || null
  }

  /** Loads the project's environments and their resources (through the client's GET cache). */
  async inventory(): Promise<ProjectInventory | null> {
    const projectUuid = this.projectUuid
    if (!projectUuid) return null
    const project = await this.client.get<CoolifyProject>(`/projects/${encodeURIComponent(projectUuid)}`)
    const environments = project.environments ?? []
    const inventory: ProjectInventory = {
      projectUuid,
      environmentIds: new Set(environments.map((e) => e.id)),
      environments,
      applicationUuids: new Set(),
      applicationIds: new Set(),
      databaseUuids: new Set(),
      serviceUuids: new Set(),
    }
    const details = await Promise.all(
      environments.map((e) =>
        this.client.get<Record<string, unknown>>(`/projects/${encodeURIComponent(projectUuid)}/${encodeURIComponent(e.uuid)}`)
      )
    )
    for (const detail of details) {
      for (const app of (detail.applications as CoolifyResourceRef[] | undefined) ?? []) {
        inventory.applicationUuids.add(app.uuid)
        inventory.applicationIds.add(String(app.id))
      }
      for (const key of DATABASE_KEYS) {
        for (const db of (detail[key] as CoolifyResourceRef[] | undefined) ?? []) inventory.databaseUuids.add(db.uuid)
      }
      for (const service of (detail.services as CoolifyResourceRef[] | undefined) ?? []) {
        inventory.serviceUuids.add(service.uuid)
      }
    }
    return inventory
  }

  async assertProject(uuid: string) {
    const projectUuid = this.projectUuid
    if (projectUuid && uuid !== projectUuid) throw this.outOfScope('Project', uuid)
  }

  async assertApplication(uuid: string) {
    const inventory = await this.inventory()
    if (inventory && !inventory.applicationUuids.has(uuid)) throw this.outOfScope('Application', uuid)
  }

  async assertDatabase(uuid: string) {
    const inventory = await this.inventory()
    if (!inventory) return
    if (inventory.databaseUuids.has(uuid)) return
    // Coolify's environment answer omits some engines (KeyDB, Dragonfly, ClickHouse on older versions).
    const all = await this.client.get<CoolifyDatabase[]>('/databases')
    const db = all.find((d) => d.uuid === uuid)
    if (!db || !inventory.environmentIds.has(Number(db.environment_id))) throw this.outOfScope('Database', uuid)
  }

  async assertService(uuid: string) {
    const inventory = await this.inventory()
    if (inventory && !inventory.serviceUuids.has(uuid)) throw this.outOfScope('Service', uuid)
  }

  /** A deployment is in scope when its application is. */
  async assertDeployment(deployment: { deployment_uuid?: string; application_id?: string | number | null }) {
    const inventory = await this.inventory()
    if (inventory && !inventory.applicationIds.has(String(deployment.application_id ?? ''))) {
      throw this.outOfScope('Deployment', deployment.deployment_uuid ?? '')
    }
  }

  /** A server is in scope when it runs at least one resource of the project. */
  async assertServer(uuid: string) {
    const inventory = await this.inventory()
    if (inventory && !(await this.serverInScope(uuid, inventory))) throw this.outOfScope('Server', uuid)
  }

  async filterProjects<T extends { uuid: string }>(projects: T[]): Promise<T[]> {
    const projectUuid = this.projectUuid
    return projectUuid ? projects.filter((p) => p.uuid === projectUuid) : projects
  }

  async filterDatabases<T extends { uuid: string; environment_id?: number | string | null }>(list: T[]): Promise<T[]> {
    const inventory = await this.inventory()
    if (!inventory) return list
    return list.filter((d) => inventory.databaseUuids.has(d.uuid) || inventory.environmentIds.has(Number(d.environment_id)))
  }

  async filterServices<T extends { uuid: string }>(list: T[]): Promise<T[]> {
    const inventory = await this.inventory()
    return inventory ? list.filter((s) => inventory.serviceUuids.has(s.uuid)) : list
  }

  async filterApplications<T extends { uuid: string }>(list: T[]): Promise<T[]> {
    const inventory = await this.inventory()
    return inventory ? list.filter((a) => inventory.applicationUuids.has(a.uuid)) : list
  }

  async filterServers<T extends { uuid: string }>(list: T[]): Promise<T[]> {
    const inventory = await this.inventory()
    if (!inventory) return list
    const keep = await Promise.all(list.map((s) => this.serverInScope(s.uuid, inventory)))
    return list.filter((_s, i) => keep[i])
  }

  protected async serverInScope(uuid: string, inventory: ProjectInventory): Promise<boolean> {
    let resources: CoolifyResourceRef[]
    try {
      resources = await this.client.get<CoolifyResourceRef[]>(`/servers/${encodeURIComponent(uuid)}/resources`)
    } catch (error) {
      if ((error as { status?: number }).status === 404) return false
      throw error
    }
    return resources.some(
      (r) => inventory.applicationUuids.has(r.uuid) || inventory.databaseUuids.has(r.uuid) || inventory.serviceUuids.has(r.uuid)
    )
  }

  protected outOfScope(kind: string, uuid: string) {
    return new CoolifyOutOfScopeException(
      `${kind} ${uuid} is outside the Coolify project this dashboard is restricted to (COOLIFY_PROJECT_UUID).`
    )
  }
}
